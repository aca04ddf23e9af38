/**
 * Scenario 1, HTTP floor: the full Koa stack (request log, security headers, error middleware, body
 * parser, router, bearer authentication with its membership check, presenter) on GET /api/workspace,
 * at BENCH_CONNECTIONS (32) keep-alive connections, against a bare node:http server answering the same JSON. Target: ≥ 50% of the bare server's req/s.
 */
import { signAccessToken } from '../api/auth/tokens';
import { runLoad, SATURATING_CONNECTIONS, table } from './lib/load';
import { JWT_SECRET, withServer } from './lib/server';
import type { Row, ScenarioContext, ScenarioResult } from './lib/scenario';

export type { ScenarioContext } from './lib/scenario';

async function measure(name: string, ctx: ScenarioContext, script: string, path: string, headers: Record<string, string>): Promise<Row> {
  return withServer(ctx, script, {}, async (port) => ({ name, ...(await runLoad({ url: `http://127.0.0.1:${port}${path}`, headers, concurrency: SATURATING_CONNECTIONS, seconds: ctx.seconds })) }));
}

export async function httpFloor(ctx: ScenarioContext): Promise<ScenarioResult> {
  const [ws] = await ctx.knex('workspaces').insert({ name: 'Bench', customerIdentifier: `bench-${Date.now()}` }).returning('id');
  const [op] = await ctx.knex('operators').insert({ name: 'Bench', email: `bench-${Date.now()}@bench.dev`, verificationLevel: 2 }).returning('id');
  await ctx.knex('workspace_members').insert({ workspaceId: ws.id, operatorId: op.id, accessLevel: 10 });
  const token = await signAccessToken(JWT_SECRET, { operatorId: op.id, workspaceId: ws.id, accessLevel: 10, operatorVersion: 0, memberVersion: 0 });
  const rows = [
    await measure('bare node:http', ctx, 'bench/servers/bareHttp.ts', '/', {}),
    await measure('koa stack GET /api/workspace', ctx, 'bench/servers/appServer.ts', '/api/workspace', { Authorization: `Bearer ${token}` }),
  ];
  console.log(table(rows, 'bare node:http'));
  const ratio = rows[1].rps / rows[0].rps;
  return { scenario: 'http-floor', target: 'koa ≥ 50% of bare node:http req/s', ratio, met: ratio >= 0.5, rows };
}
