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
import pg from 'pg';
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

/** Histogram counters of a group from its (bucket, count) pairs, as the aggregate trigger would have added them. */
const HIST_FN = `CREATE OR REPLACE FUNCTION pg_temp.bench_hist(bs integer[], ns bigint[]) RETURNS integer[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE h integer[] := array_fill(0, ARRAY[120]);
BEGIN
  IF bs IS NOT NULL THEN
    FOR i IN 1..array_length(bs, 1) LOOP h[bs[i]] := h[bs[i]] + ns[i]; END LOOP;
  END IF;
  RETURN h;
END $$`;

const aggregateInto = (table: string, keys: string[]) => {
  const time = (kind: number) =>
    `coalesce(sum(n) FILTER (WHERE kind = ${kind}), 0), coalesce(sum(s) FILTER (WHERE kind = ${kind}), 0), pg_temp.bench_hist(array_agg(b) FILTER (WHERE kind = ${kind}), array_agg(n) FILTER (WHERE kind = ${kind}))`;
  return `INSERT INTO ${table} (${keys.join(', ')}, new_count, resolved_count, tme_count, tme_sum_ms, tme_hist, tmr_count, tmr_sum_ms, tmr_hist, tma_count, tma_sum_ms, tma_hist)
    SELECT ${keys.join(', ')}, coalesce(sum(n) FILTER (WHERE kind = 1), 0), coalesce(sum(n) FILTER (WHERE kind = 2), 0), ${time(3)}, ${time(4)}, ${time(5)}
    FROM (SELECT workspace_id, day, coalesce(operator_id, 0) AS operator_id, channel_id, coalesce(group_id, 0) AS group_id, kind,
            CASE WHEN kind >= 3 THEN report_bucket(ms) ELSE 1 END AS b, count(*) AS n, coalesce(sum(ms), 0) AS s
          FROM report_facts WHERE workspace_id = $1 GROUP BY 1, 2, 3, 4, 5, 6, 7) x
    GROUP BY ${keys.join(', ')}`;
};

/**
 * rebuildReports at the bench's scale: its fact statements as they are, on a session with
 * session_replication_role = replica so the deferred per-fact aggregate trigger does not run (one
 * transaction updating the same daily rows millions of times grows each row's version chain: at 10,000
 * conversations its commit had not finished after 8 minutes), then the three daily tables filled in one
 * GROUP BY each, with the same keys, counts, sums and histogram buckets the trigger would have written.
 */
async function bulkRebuild(knex: Knex, databaseUrl: string, workspaceId: number): Promise<number> {
  // A nested transaction is a savepoint on the same session: SET LOCAL reaches rebuildReports' statements.
  const facts = await knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL session_replication_role = replica');
    return (await rebuildReports(trx, workspaceId)).facts;
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(HIST_FN);
    await client.query(aggregateInto('report_daily', ['workspace_id', 'day', 'operator_id', 'channel_id', 'group_id']), [workspaceId]);
    await client.query(aggregateInto('report_daily_agent', ['workspace_id', 'day', 'operator_id']), [workspaceId]);
    await client.query(aggregateInto('report_daily_total', ['workspace_id', 'day']), [workspaceId]);
    // The team table's pairs (docs/reports.md "Total per agent"): each (call, agent) once, under its first fact.
    await client.query(
      `INSERT INTO report_agent_calls (call_id, operator_id, workspace_id, day, channel_id, group_id)
       SELECT DISTINCT ON (call_id, operator_id) call_id, operator_id, workspace_id, day, channel_id, coalesce(group_id, 0)
       FROM report_facts WHERE workspace_id = $1 AND operator_id IS NOT NULL ORDER BY call_id, operator_id, id`,
      [workspaceId],
    );
    for (const [table, keys] of [
      ['report_daily', ['workspace_id', 'day', 'operator_id', 'channel_id', 'group_id']],
      ['report_daily_agent', ['workspace_id', 'day', 'operator_id']],
      ['report_daily_total', ['workspace_id', 'day']],
    ] as const) {
      await client.query(
        `UPDATE ${table} d SET calls_count = a.n FROM (SELECT ${keys.join(', ')}, count(*)::int AS n FROM report_agent_calls WHERE workspace_id = $1 GROUP BY ${keys.join(', ')}) a
         WHERE (${keys.map((k) => `d.${k}`).join(', ')}) = (${keys.map((k) => `a.${k}`).join(', ')})`,
        [workspaceId],
      );
    }
  } finally {
    await client.end();
  }
  return facts;
}

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
    const facts = existing > 0 ? existing : await bulkRebuild(ctx.knex, ctx.databaseUrl, seed.workspaceId);
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
