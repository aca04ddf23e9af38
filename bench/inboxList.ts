/**
 * Scenario 2, inbox list: GET /api/inbox (segment "all", 20 per page) at 1M conversations / 10M messages in
 * one workspace. Two kinds of case, each against a baseline of node:http + pg replaying the statements the
 * api ran for the same page:
 * - latency, one connection (what one person sees, nothing queued in front): owner and agent (level 3, two
 *   groups: visibility arms), page 1 and page 1000 through nextCursor (the keyset the UI follows; the
 *   agent's cursor is found by walking their own list);
 * - throughput, BENCH_CONNECTIONS (32) connections (the server saturated: p99 there is mostly queueing,
 *   32 in flight ÷ req/s): owner page 1, owner page 1000 (cursor), agent page 1, owner page 1000 by
 *   offset (informative).
 * Targets: p99 ≤ 15 ms at one connection; ≥ 50% of the bare server's req/s saturated; page 1000 ≤ 1.2×
 * page 1 (p50, one connection).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../api/logger';
import { bindModels } from '../api/db/knex';
import { CURSOR_AT_SQL } from '../api/conversations/queries';
import { encodeCursor, listConversations } from '../api/inbox/listConversations';
import { InboxListQuerySchema } from '../api/inbox/schema';
import type { ConversationViewer } from '../api/policy/conversations';
import { runLoad, SATURATING_CONNECTIONS, table, warmUpServer } from './lib/load';
import { BENCH_DIR, withServer } from './lib/server';
import { captureSql } from './lib/captureSql';
import { seedInbox, type InboxSeed } from './lib/seedInbox';
import { check, informative, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

const LIMIT = 20;
const DEEP_PAGE = 1000;

interface Case {
  name: string;
  token: string;
  viewer: ConversationViewer;
  query: Record<string, string>;
  connections: number;
}

/** The cursor that opens page `page` of the owner's open list (what following nextCursor page by page reaches). */
async function ownerCursorForPage(ctx: ScenarioContext, seed: InboxSeed, page: number): Promise<string> {
  const row = await ctx.knex('customer_platforms as cp')
    .where({ 'cp.workspace_id': seed.workspaceId, 'cp.is_finished': false })
    .orderBy([{ column: 'cp.last_message_at', order: 'desc' }, { column: 'cp.id', order: 'desc' }])
    .offset((page - 1) * LIMIT - 1)
    .first('cp.id', ctx.knex.raw(`${CURSOR_AT_SQL} AS cursor_at`));
  return encodeCursor(row);
}

/**
 * The cursor of page `page` of a viewer's own list, found by following nextCursor (100 rows a call) as
 * the UI would; a shorter list stops at its last full page. Answers the page reached.
 */
async function walkToPage(ctx: ScenarioContext, viewer: ConversationViewer, page: number): Promise<{ cursor?: string; page: number }> {
  const logger = createLogger('silent');
  let remaining = (page - 1) * LIMIT;
  let walked = 0;
  let cursor: string | undefined;
  while (remaining > 0) {
    const limit = Math.min(100, remaining);
    const res = await listConversations({ knex: ctx.knex, logger }, viewer, InboxListQuerySchema.parse({ segmentId: 'all', limit: String(limit), ...(cursor ? { cursor } : {}) }));
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
    walked += limit;
    remaining -= limit;
  }
  return { cursor, page: Math.floor(walked / LIMIT) + 1 };
}

/** Cursors depend on the seed only: found once per bench process. */
let cursors: Promise<{ open: number; ownerPage: number; ownerCursor: string; agentPage: number; agentCursor?: string }> | undefined;

export async function inboxList(ctx: ScenarioContext): Promise<ScenarioResult> {
  const seed = await seedInbox(ctx.knex, ctx.databaseUrl, ctx.scale ?? 1);
  bindModels(ctx.knex);
  const admin: ConversationViewer = { workspaceId: seed.workspaceId, operatorId: seed.admin.operatorId, accessLevel: 10, groupIds: [] };
  const agent: ConversationViewer = { workspaceId: seed.workspaceId, operatorId: seed.agent.operatorId, accessLevel: 3, groupIds: seed.agent.groupIds };
  cursors ??= (async () => {
    const open = Number((await ctx.knex('customer_platforms').where({ workspaceId: seed.workspaceId, isFinished: false }).count({ n: '*' }).first())?.n);
    const ownerPage = Math.min(DEEP_PAGE, Math.floor(open / LIMIT) - 1);
    const walked = await walkToPage(ctx, agent, DEEP_PAGE);
    return { open, ownerPage, ownerCursor: await ownerCursorForPage(ctx, seed, ownerPage), agentPage: walked.page, agentCursor: walked.cursor };
  })();
  const { open, ownerPage, ownerCursor, agentPage, agentCursor } = await cursors;
  const page = (extra: Record<string, string> = {}) => ({ segmentId: 'all', limit: String(LIMIT), ...extra });
  const one = (name: string, token: string, viewer: ConversationViewer, query: Record<string, string>): Case => ({ name: `${name}, 1 conn`, token, viewer, query, connections: 1 });
  const many = (name: string, token: string, viewer: ConversationViewer, query: Record<string, string>): Case => ({
    name: `${name}, ${SATURATING_CONNECTIONS} conn`,
    token,
    viewer,
    query,
    connections: SATURATING_CONNECTIONS,
  });
  const latency: Case[] = [
    one('owner page 1', seed.admin.token, admin, page()),
    one(`owner page ${ownerPage} (cursor)`, seed.admin.token, admin, page({ cursor: ownerCursor })),
    one('agent page 1', seed.agent.token, agent, page()),
    ...(agentCursor ? [one(`agent page ${agentPage} (cursor)`, seed.agent.token, agent, page({ cursor: agentCursor }))] : []),
  ];
  const throughput: Case[] = [
    many('owner page 1', seed.admin.token, admin, page()),
    many(`owner page ${ownerPage} (cursor)`, seed.admin.token, admin, page({ cursor: ownerCursor })),
    many('agent page 1', seed.agent.token, agent, page()),
    many(`owner page ${ownerPage} (offset)`, seed.admin.token, admin, page({ offset: String((ownerPage - 1) * LIMIT) })),
  ];
  const cases = [...latency, ...throughput];
  const logger = createLogger('silent');
  const routes: Record<string, unknown> = {};
  for (const [i, c] of cases.entries()) {
    routes[`/${i}`] = await captureSql(ctx.databaseUrl, (knex) => listConversations({ knex, logger }, c.viewer, InboxListQuerySchema.parse(c.query)));
  }
  const sqlFile = path.join(BENCH_DIR, 'inbox-list-sql.json');
  writeFileSync(sqlFile, JSON.stringify(routes));

  const bare: Row[] = await withServer(ctx, 'bench/servers/barePg.ts', { BENCH_SQL: sqlFile }, async (port) => {
    const out: Row[] = [];
    await warmUpServer(cases.map((_, i) => ({ url: `http://127.0.0.1:${port}/${i}` })));
    for (const [i, c] of cases.entries()) {
      out.push({ name: `bare pg ${c.name}`, ...(await runLoad({ url: `http://127.0.0.1:${port}/${i}`, concurrency: c.connections, seconds: ctx.seconds })) });
    }
    return out;
  });
  const api: Row[] = await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port) => {
    const out: Row[] = [];
    const urlOf = (c: (typeof cases)[number]) => `http://127.0.0.1:${port}/api/inbox?${new URLSearchParams(c.query).toString()}`;
    await warmUpServer(cases.map((c) => ({ url: urlOf(c), headers: { Authorization: `Bearer ${c.token}` } })));
    for (const c of cases) {
      const url = urlOf(c);
      out.push({ name: `api ${c.name}`, baseline: `bare pg ${c.name}`, ...(await runLoad({ url, headers: { Authorization: `Bearer ${c.token}` }, concurrency: c.connections, seconds: ctx.seconds })) });
    }
    return out;
  });
  const rows: Row[] = cases.flatMap((_, i) => [bare[i], api[i]]);
  console.log(table(rows));

  const apiLatency = api.slice(0, latency.length);
  const apiSaturated = api.slice(latency.length, latency.length + 3);
  const bareSaturated = bare.slice(latency.length, latency.length + 3);
  const worstP99 = Math.max(...apiLatency.map((r) => r.p99));
  // The worst case at one connection and the same statements on bare node+pg in this run (the SQL floor).
  const worstAt = apiLatency.findIndex((r) => r.p99 === worstP99);
  const bareWorst = bare[worstAt];
  const size = `${seed.conversations.toLocaleString('en')} conversations`;
  const worstRatio = Math.min(...apiSaturated.map((r, i) => r.rps / bareSaturated[i].rps));
  // Deep page ÷ page 1 at p50, one connection: the owner's, and the agent's when their list is that long.
  const deep = Math.max(apiLatency[1].p50 / apiLatency[0].p50, ...(agentCursor ? [apiLatency[3].p50 / apiLatency[2].p50] : []));
  const checks = [
    check(`api p99 ≤ 15 ms at 1 connection, ${size} (worst of owner/agent, page 1/deep)`, worstP99, 'ms', worstP99 <= 15),
    informative('bare pg p99 of that case at 1 connection (same statements, same run)', bareWorst.p99, 'ms'),
    informative('api req/s ÷ bare pg req/s of that case at 1 connection (same run)', (apiLatency[worstAt].rps / bareWorst.rps) * 100, '%'),
    ...latency.map((c, i) => informative(`api p99 ${c.name}`, apiLatency[i].p99, 'ms')),
    check(`api ≥ 50% of bare pg req/s at ${SATURATING_CONNECTIONS} connections (worst of owner p1, owner deep, agent p1)`, worstRatio * 100, '%', worstRatio >= 0.5),
    check('deep page ≤ 1.2× page 1 (p50, cursor, 1 connection, worse of owner/agent)', deep, '×', deep <= 1.2),
  ];
  return {
    scenario: 'inbox-list',
    target: 'api ≥ 50% of bare pg req/s',
    ratio: worstRatio,
    met: checks.every((c) => c.met),
    rows,
    checks,
    notes: [
      `${seed.conversations} conversations (${open} open), ${seed.messages} messages; deep page ${ownerPage} (owner), ${agentPage} (agent's own list)`,
      `worst case at 1 connection: ${latency[worstAt].name}`,
    ],
  };
}
