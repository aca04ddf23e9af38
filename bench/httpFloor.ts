/**
 * Scenario 1, HTTP floor: the full Koa stack (request log, security headers, error middleware, body
 * parser, router, bearer authentication with its membership check, presenter) on GET /api/workspace,
 * at BENCH_CONNECTIONS (32) keep-alive connections, against a bare node:http server answering the same JSON. Target: ≥ 50% of the bare server's req/s.
 * Informative: each server's CPU time per request over the measured seconds (/proc) and their ratio in the
 * same run (on a busy machine it grows as a server's rate falls: compare at similar rates).
 */
import { signAccessToken } from '../api/auth/tokens';
import { runLoad, SATURATING_CONNECTIONS, table } from './lib/load';
import { cpuTimeMs, JWT_SECRET, withServer } from './lib/server';
import { check, informative, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

export type { ScenarioContext } from './lib/scenario';

async function measure(name: string, ctx: ScenarioContext, script: string, path: string, headers: Record<string, string>): Promise<{ row: Row; cpuUsPerRequest: number }> {
  return withServer(ctx, script, {}, async (port, pid) => {
    const load = { url: `http://127.0.0.1:${port}${path}`, headers, concurrency: SATURATING_CONNECTIONS };
    await runLoad({ ...load, seconds: 1, warmupSeconds: 0 });
    const cpuBefore = cpuTimeMs(pid);
    const result = await runLoad({ ...load, seconds: ctx.seconds, warmupSeconds: 0 });
    const cpuUsPerRequest = ((cpuTimeMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests);
    return { row: { name, ...result }, cpuUsPerRequest };
  });
}

export async function httpFloor(ctx: ScenarioContext): Promise<ScenarioResult> {
  const [ws] = await ctx.knex('workspaces').insert({ name: 'Bench', customerIdentifier: `bench-${Date.now()}` }).returning('id');
  const [op] = await ctx.knex('operators').insert({ name: 'Bench', email: `bench-${Date.now()}@bench.dev`, verificationLevel: 2 }).returning('id');
  await ctx.knex('workspace_members').insert({ workspaceId: ws.id, operatorId: op.id, accessLevel: 10 });
  const token = await signAccessToken(JWT_SECRET, { operatorId: op.id, workspaceId: ws.id, accessLevel: 10, operatorVersion: 0, memberVersion: 0 });
  const bare = await measure('bare node:http', ctx, 'bench/servers/bareHttp.ts', '/', {});
  const koa = await measure('koa stack GET /api/workspace', ctx, 'bench/servers/appServer.ts', '/api/workspace', { Authorization: `Bearer ${token}` });
  const rows = [bare.row, koa.row];
  console.log(table(rows, 'bare node:http'));
  const ratio = koa.row.rps / bare.row.rps;
  const target = 'koa ≥ 50% of bare node:http req/s';
  return {
    scenario: 'http-floor',
    target,
    ratio,
    met: ratio >= 0.5,
    rows,
    checks: [
      check(target, ratio * 100, '%', ratio >= 0.5),
      informative('bare node:http CPU per request', Math.round(bare.cpuUsPerRequest), 'µs'),
      informative('koa CPU per request', Math.round(koa.cpuUsPerRequest), 'µs'),
      informative('bare CPU per request ÷ koa CPU per request (same run)', Math.round((bare.cpuUsPerRequest / koa.cpuUsPerRequest) * 100), '%'),
    ],
  };
}
