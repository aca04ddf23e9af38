/**
 * Scenario 1, HTTP floor: the full Koa stack (request log, security headers, error middleware, body
 * parser, router, bearer authentication with its membership check, presenter) on GET /api/workspace,
 * against a bare node:http server answering the same JSON. Target: ≥ 50% of the bare server's req/s.
 */
import type { Knex } from 'knex';
import { signAccessToken } from '../api/auth/tokens';
import { runLoad, table, type LoadResult } from './lib/load';
import { spawnPinned, waitForLine } from './lib/pin';

export interface ScenarioContext {
  knex: Knex;
  databaseUrl: string;
  serverCore?: number;
  seconds: number;
}

const JWT_SECRET = 'bench-secret-'.padEnd(48, 'b');

async function measure(name: string, ctx: ScenarioContext, script: string, path: string, headers: Record<string, string>): Promise<{ name: string } & LoadResult> {
  const child = spawnPinned(ctx.serverCore, process.execPath, ['--import', 'tsx', script], {
    DATABASE_URL: ctx.databaseUrl,
    JWT_SECRET,
    MQTT_INTERNAL_PASSWORD: 'bench-internal',
    DATA_DIR: '/tmp/balcao-bench',
    NODE_ENV: 'production',
  });
  try {
    const [, port] = await waitForLine(child, /PORT=(\d+)/);
    const result = await runLoad({ url: `http://127.0.0.1:${port}${path}`, headers, concurrency: 32, seconds: ctx.seconds });
    return { name, ...result };
  } finally {
    child.kill('SIGTERM');
  }
}

export async function httpFloor(ctx: ScenarioContext) {
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
