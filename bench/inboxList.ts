/**
 * Scenario 2, inbox list: GET /api/inbox (segment "all", 20 per page) at 1M conversations / 10M messages in
 * one workspace, 32 keep-alive connections: page 1 and page 1000 (through nextCursor, the keyset the UI
 * follows; the offset form is measured too), for the owner (sees everything) and an agent in two groups
 * (visibility arms). Baseline: node:http + pg replaying the statements the api ran for the same page.
 * Targets: p99 ≤ 15 ms; ≥ 50% of the bare server's req/s; page 1000 ≤ 1.2× page 1.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../api/logger';
import { CURSOR_AT_SQL } from '../api/conversations/queries';
import { encodeCursor, listConversations } from '../api/inbox/listConversations';
import { InboxListQuerySchema } from '../api/inbox/schema';
import type { ConversationViewer } from '../api/policy/conversations';
import { runLoad, table } from './lib/load';
import { BENCH_DIR, withServer } from './lib/server';
import { captureSql } from './lib/captureSql';
import { seedInbox, type InboxSeed } from './lib/seedInbox';
import { check, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

const LIMIT = 20;
const CONCURRENCY = 32;

interface Case {
  name: string;
  token: string;
  viewer: ConversationViewer;
  query: Record<string, string>;
}

/** The cursor that opens page `page` of the open list (what following nextCursor page by page reaches). */
async function cursorForPage(ctx: ScenarioContext, seed: InboxSeed, page: number): Promise<string> {
  const row = await ctx.knex('customer_platforms as cp')
    .where({ 'cp.workspace_id': seed.workspaceId, 'cp.is_finished': false })
    .orderBy([{ column: 'cp.last_message_at', order: 'desc' }, { column: 'cp.id', order: 'desc' }])
    .offset((page - 1) * LIMIT - 1)
    .first('cp.id', ctx.knex.raw(`${CURSOR_AT_SQL} AS cursor_at`));
  return encodeCursor(row);
}

export async function inboxList(ctx: ScenarioContext): Promise<ScenarioResult> {
  const seed = await seedInbox(ctx.knex, ctx.databaseUrl, ctx.scale ?? 1);
  const open = Number((await ctx.knex('customer_platforms').where({ workspaceId: seed.workspaceId, isFinished: false }).count({ n: '*' }).first())?.n);
  const deepPage = Math.min(1000, Math.floor(open / LIMIT) - 1);
  const cursor = await cursorForPage(ctx, seed, deepPage);
  const admin: ConversationViewer = { workspaceId: seed.workspaceId, operatorId: seed.admin.operatorId, accessLevel: 10, groupIds: [] };
  const agent: ConversationViewer = { workspaceId: seed.workspaceId, operatorId: seed.agent.operatorId, accessLevel: 3, groupIds: seed.agent.groupIds };
  const cases: Case[] = [
    { name: 'owner page 1', token: seed.admin.token, viewer: admin, query: { segmentId: 'all', limit: String(LIMIT) } },
    { name: `owner page ${deepPage} (cursor)`, token: seed.admin.token, viewer: admin, query: { segmentId: 'all', limit: String(LIMIT), cursor } },
    { name: 'agent page 1', token: seed.agent.token, viewer: agent, query: { segmentId: 'all', limit: String(LIMIT) } },
    { name: `owner page ${deepPage} (offset)`, token: seed.admin.token, viewer: admin, query: { segmentId: 'all', limit: String(LIMIT), offset: String((deepPage - 1) * LIMIT) } },
  ];
  const logger = createLogger('silent');
  const routes: Record<string, unknown> = {};
  for (const [i, c] of cases.entries()) {
    routes[`/${i}`] = await captureSql(ctx.databaseUrl, (knex) => listConversations({ knex, logger }, c.viewer, InboxListQuerySchema.parse(c.query)));
  }
  const sqlFile = path.join(BENCH_DIR, 'inbox-list-sql.json');
  writeFileSync(sqlFile, JSON.stringify(routes));

  const rows: Row[] = [];
  const bare: Row[] = await withServer(ctx, 'bench/servers/barePg.ts', { BENCH_SQL: sqlFile }, async (port) => {
    const out: Row[] = [];
    for (const [i, c] of cases.entries()) {
      out.push({ name: `bare pg ${c.name}`, ...(await runLoad({ url: `http://127.0.0.1:${port}/${i}`, concurrency: CONCURRENCY, seconds: ctx.seconds })) });
    }
    return out;
  });
  const api: Row[] = await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port) => {
    const out: Row[] = [];
    for (const c of cases) {
      const url = `http://127.0.0.1:${port}/api/inbox?${new URLSearchParams(c.query).toString()}`;
      out.push({ name: `api ${c.name}`, baseline: `bare pg ${c.name}`, ...(await runLoad({ url, headers: { Authorization: `Bearer ${c.token}` }, concurrency: CONCURRENCY, seconds: ctx.seconds })) });
    }
    return out;
  });
  for (let i = 0; i < cases.length; i++) rows.push(bare[i], api[i]);
  console.log(table(rows));

  const measured = api.slice(0, 3);
  const worstP99 = Math.max(...measured.map((r) => r.p99));
  const worstRatio = Math.min(...measured.map((r, i) => r.rps / bare[i].rps));
  const deep = api[1].p50 / api[0].p50;
  const checks = [
    check('api p99 ≤ 15 ms (worst of owner p1, owner deep page, agent p1)', worstP99, 'ms', worstP99 <= 15),
    check('api ≥ 50% of bare pg req/s (worst case)', worstRatio * 100, '%', worstRatio >= 0.5),
    check(`page ${deepPage} ≤ 1.2× page 1 (p50, cursor)`, deep, '×', deep <= 1.2),
  ];
  return {
    scenario: 'inbox-list',
    target: 'api ≥ 50% of bare pg req/s',
    ratio: worstRatio,
    met: checks.every((c) => c.met),
    rows,
    checks,
    notes: [`${seed.conversations} conversations (${open} open), ${seed.messages} messages; ${CONCURRENCY} connections; deep page ${deepPage}`],
  };
}
