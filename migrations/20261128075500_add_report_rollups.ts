import type { Knex } from 'knex';
import { REPORT_AGGREGATE } from './20261128071000_create_report_facts';

/**
 * Reports (docs/reports.md "How the figures are kept"): two rollups of report_daily kept by the same deferred
 * trigger, so a report without channel or group filters reads one row per day (report_daily_total) or one per
 * day and agent (report_daily_agent, the team table and the agent filter) instead of every
 * agent × channel × group row of the period: a dense workspace has hundreds of those a day, each with three
 * histograms. Filled from the facts already recorded.
 */
const COUNTERS = `
    new_count integer NOT NULL DEFAULT 0,
    resolved_count integer NOT NULL DEFAULT 0,
    tme_count integer NOT NULL DEFAULT 0,
    tme_sum_ms bigint NOT NULL DEFAULT 0,
    tme_hist integer[] NOT NULL DEFAULT array_fill(0, ARRAY[120]),
    tmr_count integer NOT NULL DEFAULT 0,
    tmr_sum_ms bigint NOT NULL DEFAULT 0,
    tmr_hist integer[] NOT NULL DEFAULT array_fill(0, ARRAY[120]),
    tma_count integer NOT NULL DEFAULT 0,
    tma_sum_ms bigint NOT NULL DEFAULT 0,
    tma_hist integer[] NOT NULL DEFAULT array_fill(0, ARRAY[120])`;


/** One fact added to one of the three daily tables (its key columns are the table's). (20261128075600 restores it on down.) */
export const REPORT_BUMP = `CREATE FUNCTION report_bump(tbl text, ws integer, d date, op integer, ch integer, grp integer, fact_kind smallint, fact_ms bigint)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  keys text := CASE tbl WHEN 'report_daily' THEN 'workspace_id, day, operator_id, channel_id, group_id' WHEN 'report_daily_agent' THEN 'workspace_id, day, operator_id' ELSE 'workspace_id, day' END;
  keyvals text := CASE tbl WHEN 'report_daily' THEN '$1, $2, $3, $4, $5' WHEN 'report_daily_agent' THEN '$1, $2, $3' ELSE '$1, $2' END;
  prefix text;
BEGIN
  IF fact_kind IN (1, 2) THEN
    prefix := CASE fact_kind WHEN 1 THEN 'new_count' ELSE 'resolved_count' END;
    EXECUTE format('INSERT INTO %1$I AS d (%2$s, %4$I) VALUES (%3$s, 1) ON CONFLICT (%2$s) DO UPDATE SET %4$I = d.%4$I + 1', tbl, keys, keyvals, prefix)
    USING ws, d, op, ch, grp;
  ELSE
    prefix := CASE fact_kind WHEN 3 THEN 'tme' WHEN 4 THEN 'tmr' ELSE 'tma' END;
    EXECUTE format(
      'INSERT INTO %1$I AS d (%2$s, %4$I, %5$I, %6$I)
       VALUES (%3$s, 1, $6, (SELECT array_agg(CASE WHEN i = $7 THEN 1 ELSE 0 END ORDER BY i) FROM generate_series(1, 120) AS i))
       ON CONFLICT (%2$s) DO UPDATE SET %4$I = d.%4$I + 1, %5$I = d.%5$I + $6, %6$I[$7] = d.%6$I[$7] + 1',
      tbl, keys, keyvals, prefix || '_count', prefix || '_sum_ms', prefix || '_hist')
    USING ws, d, op, ch, grp, fact_ms, report_bucket(fact_ms);
  END IF;
END $$`;

/** report_aggregate through report_bump, into the three daily tables. (20261128075600 restores it on down.) */
export const BUMP_AGGREGATE = `CREATE OR REPLACE FUNCTION report_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_bump('report_daily', NEW.workspace_id, NEW.day, coalesce(NEW.operator_id, 0), NEW.channel_id, coalesce(NEW.group_id, 0), NEW.kind, NEW.ms);
  PERFORM report_bump('report_daily_agent', NEW.workspace_id, NEW.day, coalesce(NEW.operator_id, 0), NEW.channel_id, coalesce(NEW.group_id, 0), NEW.kind, NEW.ms);
  PERFORM report_bump('report_daily_total', NEW.workspace_id, NEW.day, coalesce(NEW.operator_id, 0), NEW.channel_id, coalesce(NEW.group_id, 0), NEW.kind, NEW.ms);
  RETURN NULL;
END $$`;

export async function up(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  await sql(`CREATE TABLE report_daily_agent (
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day date NOT NULL,
    operator_id integer NOT NULL DEFAULT 0,${COUNTERS},
    PRIMARY KEY (workspace_id, day, operator_id)
  )`);
  await sql(`CREATE TABLE report_daily_total (
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day date NOT NULL,${COUNTERS},
    PRIMARY KEY (workspace_id, day)
  )`);
  await sql(REPORT_BUMP);
  await sql(BUMP_AGGREGATE);
  // The facts recorded so far, into the rollups.
  await sql(`SELECT count(report_bump(t, workspace_id, day, coalesce(operator_id, 0), channel_id, coalesce(group_id, 0), kind, ms))
    FROM report_facts, unnest(ARRAY['report_daily_agent', 'report_daily_total']) AS t`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`CREATE OR REPLACE FUNCTION ${REPORT_AGGREGATE}`);
  await knex.raw('DROP FUNCTION IF EXISTS report_bump(text, integer, date, integer, integer, integer, smallint, bigint)');
  await knex.raw('DROP TABLE IF EXISTS report_daily_total');
  await knex.raw('DROP TABLE IF EXISTS report_daily_agent');
}
