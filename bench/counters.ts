/**
 * Scenario 3, counters: POST /api/inbox/counter (unread per fixed segment, pending, and three subscribed
 * custom segments) at the inbox scenario's scale, for the owner and for an agent in two groups, one
 * request at a time (the latency an operator sees), against node:http + pg replaying the same
 * statements. Target: p95 ≤ 5 ms.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../api/logger';
import { countConversations } from '../api/inbox/countConversations';
import { bindModels } from '../api/db/knex';
import type { ConversationViewer } from '../api/policy/conversations';
import { runLoad, table } from './lib/load';
import { BENCH_DIR, withServer } from './lib/server';
import { captureSql } from './lib/captureSql';
import { seedInbox } from './lib/seedInbox';
import { check, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

const CONCURRENCY = Number(process.env.BENCH_COUNTER_CONCURRENCY ?? 1);

export async function counters(ctx: ScenarioContext): Promise<ScenarioResult> {
  const seed = await seedInbox(ctx.knex, ctx.databaseUrl, ctx.scale ?? 1);
  const cases: { name: string; token: string; viewer: ConversationViewer }[] = [
    { name: 'owner', token: seed.admin.token, viewer: { workspaceId: seed.workspaceId, operatorId: seed.admin.operatorId, accessLevel: 10, groupIds: [] } },
    { name: 'agent', token: seed.agent.token, viewer: { workspaceId: seed.workspaceId, operatorId: seed.agent.operatorId, accessLevel: 3, groupIds: seed.agent.groupIds } },
  ];
  const logger = createLogger('silent');
  const routes: Record<string, unknown> = {};
  for (const [i, c] of cases.entries()) {
    routes[`/${i}`] = await captureSql(ctx.databaseUrl, (knex) => {
      // Segment lookups go through Objection models.
      bindModels(knex);
      return countConversations({ knex, logger }, c.viewer);
    });
  }
  bindModels(ctx.knex);
  const sqlFile = path.join(BENCH_DIR, 'counters-sql.json');
  writeFileSync(sqlFile, JSON.stringify(routes));
  const bare = await withServer(ctx, 'bench/servers/barePg.ts', { BENCH_SQL: sqlFile }, async (port) => {
    const out: Row[] = [];
    for (const [i, c] of cases.entries()) out.push({ name: `bare pg ${c.name}`, ...(await runLoad({ url: `http://127.0.0.1:${port}/${i}`, concurrency: CONCURRENCY, seconds: ctx.seconds })) });
    return out;
  });
  const api = await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port) => {
    const out: Row[] = [];
    for (const c of cases) {
      out.push({
        name: `api ${c.name} POST /inbox/counter`,
        baseline: `bare pg ${c.name}`,
        ...(await runLoad({ url: `http://127.0.0.1:${port}/api/inbox/counter`, method: 'POST', headers: { Authorization: `Bearer ${c.token}` }, concurrency: CONCURRENCY, seconds: ctx.seconds })),
      });
    }
    return out;
  });
  const rows = cases.flatMap((_, i) => [bare[i], api[i]]);
  console.log(table(rows));
  const worst = Math.max(...api.map((r) => r.p95));
  const ratio = Math.min(...api.map((r, i) => r.rps / bare[i].rps));
  return {
    scenario: 'counters',
    target: 'p95 ≤ 5 ms',
    ratio,
    met: worst <= 5,
    rows,
    checks: [check('api counter p95 ≤ 5 ms (worse of owner, agent)', worst, 'ms', worst <= 5)],
    notes: [`${seed.conversations} conversations; ${CONCURRENCY} connection(s)`],
  };
}
