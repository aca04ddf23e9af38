/**
 * Scenario `reports` (issue 27): the report calls at the inbox scenario's scale (1M conversations / 10M
 * messages spread over ~347 days, 30 agents, 5 groups, 4 channels), at one connection (what one manager
 * sees): the 30-day conversations report, the 366-day one, the dashboard, the 30-day team table, and
 * (informative) the 30-day report filtered by a channel (which reads every dimension row). Each against
 * node:http + pg replaying the statements the api ran for the same call (captured from knex). The inbox
 * seed bypasses the triggers, so the first run rebuilds the workspace's report facts and daily rows with
 * rebuildReports (the upgrade backfill) and reports how long that took. Targets: p95 ≤ 100 ms (30 days),
 * ≤ 300 ms (366 days), ≤ 30 ms (dashboard), ≤ 100 ms (team table).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { bindModels } from '../api/db/knex';
import { defaultDays } from '../api/businessHours/schedule';
import { loadViewer } from '../api/policy/conversations';
import type { Actor } from '../api/policy/policy';
import { addDays, localToday, resolveScope } from '../api/reports/filters';
import { agentsReport, conversationsReport } from '../api/reports/figures';
import { dashboard } from '../api/reports/dashboard';
import { rebuildReports } from '../api/reports/rebuild';
import { ReportQuerySchema } from '../api/reports/schema';
import { runLoad, table } from './lib/load';
import { BENCH_DIR, withServer } from './lib/server';
import { captureSql } from './lib/captureSql';
import { seedInbox } from './lib/seedInbox';
import { check, informative, type Row, type ScenarioContext, type ScenarioResult } from './lib/scenario';

interface Case {
  name: string;
  path: string;
  query: Record<string, string>;
  run: (knex: Knex, actor: Actor) => Promise<unknown>;
  target?: number;
}

/** The rebuild runs once per bench process (the seed is reused by every run). */
let rebuilt: Promise<{ facts: number; seconds: number; daily: number }> | undefined;

export async function reports(ctx: ScenarioContext): Promise<ScenarioResult> {
  const seed = await seedInbox(ctx.knex, ctx.databaseUrl, ctx.scale ?? 1);
  bindModels(ctx.knex);
  rebuilt ??= (async () => {
    const started = Date.now();
    const existing = Number((await ctx.knex('report_facts').where({ workspaceId: seed.workspaceId }).count({ n: '*' }).first())?.n);
    const facts = existing > 0 ? existing : (await rebuildReports(ctx.knex, seed.workspaceId)).facts;
    if (!existing) await ctx.knex.raw('VACUUM (ANALYZE) report_facts, report_daily, report_daily_agent, report_daily_total, report_calls, report_agent_calls');
    const daily = Number((await ctx.knex('report_daily').where({ workspaceId: seed.workspaceId }).count({ n: '*' }).first())?.n);
    if (!(await ctx.knex('business_hours').where({ workspaceId: seed.workspaceId }).first('id'))) {
      await ctx.knex('business_hours').insert({ workspaceId: seed.workspaceId, name: 'Comercial', days: JSON.stringify(defaultDays()), sort: 0 });
    }
    return { facts, daily, seconds: existing ? 0 : (Date.now() - started) / 1000 };
  })();
  const facts = await rebuilt;
  const actor: Actor = { workspaceId: seed.workspaceId, operatorId: seed.admin.operatorId, accessLevel: 10, kind: 'operator' };
  const today = localToday('America/Sao_Paulo');
  const days = (n: number) => ({ from: addDays(today, -(n - 1)), to: today });
  const channel = (await ctx.knex('channels').where({ workspaceId: seed.workspaceId }).orderBy('id').first('id')).id as number;
  const scoped = (q: Record<string, string>) => async (knex: Knex, a: Actor) => resolveScope(knex, a, ReportQuerySchema.parse(q));
  const cases: Case[] = [
    { name: 'conversations 30 days', path: '/api/report', query: days(30), target: 100, run: async (k, a) => conversationsReport(k, await scoped(days(30))(k, a)) },
    { name: 'conversations 366 days', path: '/api/report', query: days(366), target: 300, run: async (k, a) => conversationsReport(k, await scoped(days(366))(k, a)) },
    { name: 'dashboard', path: '/api/dashboard', query: {}, target: 30, run: async (k, a) => dashboard(k, await scoped({})(k, a), await loadViewer(k, a)) },
    { name: 'team table 30 days', path: '/api/dashboard/agents', query: days(30), target: 100, run: async (k, a) => agentsReport(k, await scoped(days(30))(k, a)) },
    {
      name: 'conversations 30 days, business hours',
      path: '/api/report',
      query: { ...days(30), businessHours: 'true' },
      run: async (k, a) => conversationsReport(k, await scoped({ ...days(30), businessHours: 'true' })(k, a)),
    },
    {
      name: 'conversations 30 days, one channel',
      path: '/api/report',
      query: { ...days(30), channels: String(channel) },
      run: async (k, a) => conversationsReport(k, await scoped({ ...days(30), channels: String(channel) })(k, a)),
    },
  ];
  const routes: Record<string, unknown> = {};
  for (const [i, c] of cases.entries()) routes[`/${i}`] = await captureSql(ctx.databaseUrl, (knex) => c.run(knex, actor));
  const sqlFile = path.join(BENCH_DIR, 'reports-sql.json');
  writeFileSync(sqlFile, JSON.stringify(routes));

  const bare: Row[] = await withServer(ctx, 'bench/servers/barePg.ts', { BENCH_SQL: sqlFile }, async (port) => {
    const out: Row[] = [];
    for (const [i, c] of cases.entries()) out.push({ name: `bare pg ${c.name}`, ...(await runLoad({ url: `http://127.0.0.1:${port}/${i}`, concurrency: 1, seconds: ctx.seconds })) });
    return out;
  });
  const api: Row[] = await withServer(ctx, 'bench/servers/appServer.ts', {}, async (port) => {
    const out: Row[] = [];
    for (const c of cases) {
      const url = `http://127.0.0.1:${port}${c.path}?${new URLSearchParams(c.query).toString()}`;
      out.push({ name: `api ${c.name}`, baseline: `bare pg ${c.name}`, ...(await runLoad({ url, headers: { Authorization: `Bearer ${seed.admin.token}` }, concurrency: 1, seconds: ctx.seconds })) });
    }
    return out;
  });
  const rows: Row[] = cases.flatMap((_, i) => [bare[i], api[i]]);
  console.log(table(rows));
  const checks = cases.map((c, i) => (c.target ? check(`api ${c.name} p95 ≤ ${c.target} ms (1 connection)`, api[i].p95, 'ms', api[i].p95 <= c.target) : informative(`api ${c.name} p95 (1 connection)`, api[i].p95, 'ms')));
  const ratios = api.map((r, i) => r.rps / bare[i].rps);
  return {
    scenario: 'reports',
    target: 'report p95 targets at 1 connection',
    ratio: Math.min(...ratios),
    met: checks.every((c) => c.met || c.informative),
    rows,
    checks,
    notes: [
      `${seed.conversations} conversations, ${seed.messages} messages; ${facts.facts} report facts, ${facts.daily} report_daily rows${facts.seconds ? `; rebuildReports took ${facts.seconds.toFixed(0)} s` : ''}`,
    ],
  };
}
