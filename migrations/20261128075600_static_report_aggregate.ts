import type { Knex } from 'knex';
import { REPORT_RECORD } from './20261128071000_create_report_facts';
import { BUMP_AGGREGATE, REPORT_BUMP } from './20261128075500_add_report_rollups';

/**
 * Reports (docs/reports.md "How the figures are kept"): the deferred trigger that adds each fact to the three
 * daily tables runs on the commit of every call insert and update that records a fact. It went through
 * report_bump, which built each upsert with format() and ran it with EXECUTE (parsed and planned again for
 * every fact and table) and built the histogram of a new row with generate_series even when the row existed.
 * Now three static upserts, planned once per session: every counter of the row is added to, by 0 or 1 after
 * the fact's kind, and the histogram of a new row is a zero array with the fact's bucket set. The figures are
 * the same. report_record reads the workspace's time zone inside its insert instead of in a statement of its
 * own (the read stays: it is where the zone lives, and a zone change must apply to the next fact).
 */
const ROLLUPS = [
  { table: 'report_daily', keys: 'workspace_id, day, operator_id, channel_id, group_id', values: 'NEW.workspace_id, NEW.day, op, NEW.channel_id, grp' },
  { table: 'report_daily_agent', keys: 'workspace_id, day, operator_id', values: 'NEW.workspace_id, NEW.day, op' },
  { table: 'report_daily_total', keys: 'workspace_id, day', values: 'NEW.workspace_id, NEW.day' },
];

const upsert = ({ table, keys, values }: (typeof ROLLUPS)[number]) => `
  INSERT INTO ${table} AS d (${keys}, new_count, resolved_count,
    tme_count, tme_sum_ms, tme_hist, tmr_count, tmr_sum_ms, tmr_hist, tma_count, tma_sum_ms, tma_hist)
  VALUES (${values}, n_new, n_resolved,
    n_tme, n_tme * ms, CASE n_tme WHEN 1 THEN one ELSE zero END,
    n_tmr, n_tmr * ms, CASE n_tmr WHEN 1 THEN one ELSE zero END,
    n_tma, n_tma * ms, CASE n_tma WHEN 1 THEN one ELSE zero END)
  ON CONFLICT (${keys}) DO UPDATE SET
    new_count = d.new_count + n_new, resolved_count = d.resolved_count + n_resolved,
    tme_count = d.tme_count + n_tme, tme_sum_ms = d.tme_sum_ms + n_tme * ms, tme_hist[b] = d.tme_hist[b] + n_tme,
    tmr_count = d.tmr_count + n_tmr, tmr_sum_ms = d.tmr_sum_ms + n_tmr * ms, tmr_hist[b] = d.tmr_hist[b] + n_tmr,
    tma_count = d.tma_count + n_tma, tma_sum_ms = d.tma_sum_ms + n_tma * ms, tma_hist[b] = d.tma_hist[b] + n_tma;`;

const STATIC_AGGREGATE = `CREATE OR REPLACE FUNCTION report_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  op integer := coalesce(NEW.operator_id, 0);
  grp integer := coalesce(NEW.group_id, 0);
  n_new integer := (NEW.kind = 1)::integer;
  n_resolved integer := (NEW.kind = 2)::integer;
  n_tme integer := (NEW.kind = 3)::integer;
  n_tmr integer := (NEW.kind = 4)::integer;
  n_tma integer := (NEW.kind = 5)::integer;
  ms bigint := coalesce(NEW.ms, 0);
  b integer := 1;
  zero integer[] := array_fill(0, ARRAY[120]);
  one integer[] := zero;
BEGIN
  IF NEW.kind >= 3 THEN
    b := report_bucket(NEW.ms);
    one[b] := 1;
  END IF;${ROLLUPS.map(upsert).join('')}
  RETURN NULL;
END $$`;

const ONE_STATEMENT_RECORD = `CREATE OR REPLACE FUNCTION report_record(ws integer, call bigint, fact_kind smallint, fact_at timestamptz, fact_ms bigint, op integer, grp integer, ch integer)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_facts (workspace_id, call_id, kind, at, day, ms, operator_id, group_id, channel_id)
  VALUES (ws, call, fact_kind, fact_at, (fact_at AT TIME ZONE coalesce((SELECT time_zone FROM workspaces WHERE id = ws), 'America/Sao_Paulo'))::date, fact_ms, op, grp, ch);
END $$`;


export async function up(knex: Knex): Promise<void> {
  await knex.raw(STATIC_AGGREGATE);
  await knex.raw(ONE_STATEMENT_RECORD);
  await knex.raw('DROP FUNCTION report_bump(text, integer, date, integer, integer, integer, smallint, bigint)');
}

// What 20261128071000 and 20261128075500 left.
export async function down(knex: Knex): Promise<void> {
  await knex.raw(REPORT_BUMP);
  await knex.raw(BUMP_AGGREGATE);
  await knex.raw(`CREATE OR REPLACE FUNCTION ${REPORT_RECORD}`);
}
