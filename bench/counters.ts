/**
 * Scenario 3, counters: POST /api/inbox/counter (unread per fixed segment, pending, and three subscribed
 * custom segments) at the inbox scenario's scale, for the owner and for an agent in two groups, against
 * node:http + pg replaying the same statements: at one connection (the latency an operator sees; the
 * target) and at BENCH_CONNECTIONS (32; the saturated throughput ratio). Target: p95 ≤ 5 ms at one
 * connection.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../api/logger';
import { countConversations } from '../api/inbox/countConversations';
import { bindModels } from '../api/db/knex';
import type { ConversationViewer } from '../api/policy/conversations';
import { runLoad, SATURATING_CONNECTIONS, table, warmUpServer } from './lib/load';
import { BENCH_DIR, withServer } from './lib/server';
import { captureSql } from './lib/captureSql';
import { seedInbox } from './lib/seedInbox';
import { check, informative, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

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
  const loads = [1, SATURATING_CONNECTIONS];
  const measured = cases.flatMap((c, i) => loads.map((connections) => ({ ...c, route: `/${i}`, connections, label: `${c.name}, ${connections} conn` })));
  const bare = await withServer(ctx, 'bench/servers/barePg.ts', { BENCH_SQL: sqlFile }, async (port) => {
    const out: Row[] = [];
    await warmUpServer(cases.map((_, i) => ({ url: `http://127.0.0.1:${port}/${i}` })));
    for (const m of measured) out.push({ name: `bare pg ${m.label}`, ...(await runLoad({ url: `http://127.0.0.1:${port}${m.route}`, concurrency: m.connections, seconds: ctx.seconds })) });
    return out;
  });
  const api = await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port) => {
    const out: Row[] = [];
    await warmUpServer(cases.map((c) => ({ url: `http://127.0.0.1:${port}/api/inbox/counter`, method: 'POST', headers: { Authorization: `Bearer ${c.token}` } })));
    for (const m of measured) {
      out.push({
        name: `api ${m.label}`,
        baseline: `bare pg ${m.label}`,
        ...(await runLoad({ url: `http://127.0.0.1:${port}/api/inbox/counter`, method: 'POST', headers: { Authorization: `Bearer ${m.token}` }, concurrency: m.connections, seconds: ctx.seconds })),
      });
    }
    return out;
  });
  const rows = measured.flatMap((_, i) => [bare[i], api[i]]);
  console.log(table(rows));
  const single = api.filter((_, i) => measured[i].connections === 1);
  const worst = Math.max(...single.map((r) => r.p95));
  const size = `${seed.conversations.toLocaleString('en')} conversations`;
  // Owner and agent at one connection, each with the same statements on bare node+pg in this run (the SQL floor).
  const perViewer = measured.flatMap((m, i) =>
    m.connections === 1
      ? [
          check(`api counter p95 ≤ 5 ms at 1 connection, ${size}, ${m.name}`, api[i].p95, 'ms', api[i].p95 <= 5),
          informative(`bare pg counter p95 at 1 connection, ${m.name} (same statements, same run)`, bare[i].p95, 'ms'),
          informative(`api ÷ bare pg req/s at 1 connection, ${m.name} (same run)`, (api[i].rps / bare[i].rps) * 100, '%'),
        ]
      : [],
  );
  const saturated = measured.flatMap((m, i) => (m.connections === 1 ? [] : [api[i].rps / bare[i].rps]));
  const ratio = Math.min(...saturated);
  return {
    scenario: 'counters',
    target: 'p95 ≤ 5 ms',
    ratio,
    met: worst <= 5,
    rows,
    checks: [
      check(`api counter p95 ≤ 5 ms at 1 connection, ${size} (worse of owner, agent)`, worst, 'ms', worst <= 5),
      ...perViewer,
      informative(`api ÷ bare pg req/s at ${SATURATING_CONNECTIONS} connections (worse of owner, agent)`, ratio * 100, '%'),
    ],
    notes: [`${seed.conversations} conversations; 1 and ${SATURATING_CONNECTIONS} connections`],
  };
}
