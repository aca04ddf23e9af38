import type { Knex } from 'knex';

/**
 * The team table's 'Total' (docs/reports.md "Total per agent"): the calls an agent took part in, each counted
 * once, on the day of the agent's first fact in the call (as 'Novas' counts a call on the day it opened).
 * Counting distinct calls of the period from report_facts read every fact of the period (1.4 s at the bench's
 * scale); now the aggregate trigger notes each (call, agent) pair once in report_agent_calls, with the day,
 * channel and group of that first fact, and adds 1 to calls_count of the three daily tables when the pair is
 * new. A period's total is then a sum over daily rows, like every other figure; with a tag filter it is a
 * count over report_agent_calls.
 *
 * rebuildReports (a backfill, the demo seed, a time-zone repair) writes a workspace's facts with the trigger
 * told to skip them (`balcao.report_rebuild`) and fills the daily tables in one GROUP BY each, with
 * report_hist building each histogram from (bucket, count) pairs: one upsert per fact made a large backfill
 * crawl (each daily row updated thousands of times in one transaction).
 */
const ROLLUPS = [
  { table: 'report_daily', keys: 'workspace_id, day, operator_id, channel_id, group_id', values: 'NEW.workspace_id, NEW.day, op, NEW.channel_id, grp' },
  { table: 'report_daily_agent', keys: 'workspace_id, day, operator_id', values: 'NEW.workspace_id, NEW.day, op' },
  { table: 'report_daily_total', keys: 'workspace_id, day', values: 'NEW.workspace_id, NEW.day' },
];

/** report_aggregate as 20261128075600 wrote it (withCalls false) or with the pair count (true). */
function aggregateFunction(withCalls: boolean): string {
  const upsert = ({ table, keys, values }: (typeof ROLLUPS)[number]) => `
  INSERT INTO ${table} AS d (${keys}, new_count, resolved_count,
    tme_count, tme_sum_ms, tme_hist, tmr_count, tmr_sum_ms, tmr_hist, tma_count, tma_sum_ms, tma_hist${withCalls ? ', calls_count' : ''})
  VALUES (${values}, n_new, n_resolved,
    n_tme, n_tme * ms, CASE n_tme WHEN 1 THEN one ELSE zero END,
    n_tmr, n_tmr * ms, CASE n_tmr WHEN 1 THEN one ELSE zero END,
    n_tma, n_tma * ms, CASE n_tma WHEN 1 THEN one ELSE zero END${withCalls ? ', n_calls' : ''})
  ON CONFLICT (${keys}) DO UPDATE SET
    new_count = d.new_count + n_new, resolved_count = d.resolved_count + n_resolved,
    tme_count = d.tme_count + n_tme, tme_sum_ms = d.tme_sum_ms + n_tme * ms, tme_hist[b] = d.tme_hist[b] + n_tme,
    tmr_count = d.tmr_count + n_tmr, tmr_sum_ms = d.tmr_sum_ms + n_tmr * ms, tmr_hist[b] = d.tmr_hist[b] + n_tmr,
    tma_count = d.tma_count + n_tma, tma_sum_ms = d.tma_sum_ms + n_tma * ms, tma_hist[b] = d.tma_hist[b] + n_tma${withCalls ? ',\n    calls_count = d.calls_count + n_calls' : ''};`;
  const pair = withCalls
    ? `
  IF NEW.operator_id IS NOT NULL THEN
    INSERT INTO report_agent_calls (call_id, operator_id, workspace_id, day, channel_id, group_id)
    VALUES (NEW.call_id, NEW.operator_id, NEW.workspace_id, NEW.day, NEW.channel_id, grp)
    ON CONFLICT (call_id, operator_id) DO NOTHING;
    IF FOUND THEN n_calls := 1; END IF;
  END IF;`
    : '';
  return `CREATE OR REPLACE FUNCTION report_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  op integer := coalesce(NEW.operator_id, 0);
  grp integer := coalesce(NEW.group_id, 0);
  n_new integer := (NEW.kind = 1)::integer;
  n_resolved integer := (NEW.kind = 2)::integer;
  n_tme integer := (NEW.kind = 3)::integer;
  n_tmr integer := (NEW.kind = 4)::integer;
  n_tma integer := (NEW.kind = 5)::integer;${withCalls ? '\n  n_calls integer := 0;' : ''}
  ms bigint := coalesce(NEW.ms, 0);
  b integer := 1;
  zero integer[] := array_fill(0, ARRAY[120]);
  one integer[] := zero;
BEGIN${
    withCalls
      ? `
  -- rebuildReports aggregates its own facts in bulk: it sets this for the statements that write them.
  IF current_setting('balcao.report_rebuild', true) = 'on' THEN RETURN NULL; END IF;`
      : ''
  }
  IF NEW.kind >= 3 THEN
    b := report_bucket(NEW.ms);
    one[b] := 1;
  END IF;${pair}${ROLLUPS.map(upsert).join('')}
  RETURN NULL;
END $$`;
}

/** A 120-counter histogram from its buckets and their counts (rebuildReports' bulk aggregation). */
const REPORT_HIST = `CREATE FUNCTION report_hist(bs integer[], ns bigint[]) RETURNS integer[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE h integer[] := array_fill(0, ARRAY[120]);
BEGIN
  IF bs IS NOT NULL THEN
    FOR i IN 1..array_length(bs, 1) LOOP h[bs[i]] := h[bs[i]] + ns[i]; END LOOP;
  END IF;
  RETURN h;
END $$`;

export async function up(knex: Knex): Promise<void> {
  const sql = (text: string, bindings: unknown[] = []) => knex.raw(text, bindings as Knex.RawBinding[]);
  await sql(REPORT_HIST);
  await sql(`CREATE TABLE report_agent_calls (
    call_id bigint NOT NULL,
    operator_id integer NOT NULL,
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day date NOT NULL,
    channel_id integer NOT NULL,
    group_id integer NOT NULL DEFAULT 0,
    PRIMARY KEY (call_id, operator_id)
  )`);
  await sql('CREATE INDEX report_agent_calls_workspace_day_idx ON report_agent_calls (workspace_id, day, operator_id)');
  for (const { table } of ROLLUPS) await sql(`ALTER TABLE ${table} ADD COLUMN calls_count integer NOT NULL DEFAULT 0`);
  // No fact may be aggregated between the backfill and the new function: hold new facts until this commits.
  await sql('LOCK TABLE report_facts IN SHARE ROW EXCLUSIVE MODE');
  await sql(aggregateFunction(true));
  await sql(`INSERT INTO report_agent_calls (call_id, operator_id, workspace_id, day, channel_id, group_id)
    SELECT DISTINCT ON (call_id, operator_id) call_id, operator_id, workspace_id, day, channel_id, coalesce(group_id, 0)
    FROM report_facts WHERE operator_id IS NOT NULL ORDER BY call_id, operator_id, id`);
  await sql(`UPDATE report_daily d SET calls_count = a.n FROM (
      SELECT workspace_id, day, operator_id, channel_id, group_id, count(*)::int AS n FROM report_agent_calls GROUP BY 1, 2, 3, 4, 5) a
    WHERE (d.workspace_id, d.day, d.operator_id, d.channel_id, d.group_id) = (a.workspace_id, a.day, a.operator_id, a.channel_id, a.group_id)`);
  await sql(`UPDATE report_daily_agent d SET calls_count = a.n FROM (
      SELECT workspace_id, day, operator_id, count(*)::int AS n FROM report_agent_calls GROUP BY 1, 2, 3) a
    WHERE (d.workspace_id, d.day, d.operator_id) = (a.workspace_id, a.day, a.operator_id)`);
  await sql(`UPDATE report_daily_total d SET calls_count = a.n FROM (
      SELECT workspace_id, day, count(*)::int AS n FROM report_agent_calls GROUP BY 1, 2) a
    WHERE (d.workspace_id, d.day) = (a.workspace_id, a.day)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(aggregateFunction(false));
  for (const { table } of ROLLUPS) await knex.raw(`ALTER TABLE ${table} DROP COLUMN calls_count`);
  await knex.raw('DROP TABLE report_agent_calls');
  await knex.raw('DROP FUNCTION report_hist(integer[], bigint[])');
}
