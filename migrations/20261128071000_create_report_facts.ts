import type { Knex } from 'knex';

/**
 * Reports (issue 27, docs/reports.md): facts recorded when they happen, in the same transaction as what they
 * measure, by triggers on the tables the conversation pipeline writes (calls, bot_sessions), and daily
 * aggregates per workspace × local day × agent × channel × group kept in the same statement.
 *
 * - report_calls: per call, its channel and since when it needs a person (null while a bot holds it).
 * - report_facts: append-only; kind 1 opened, 2 resolved, 3 first response (TME), 4 response (TMR),
 *   5 service (TMA); ms for the times; agent and group are the call's at that moment.
 * - report_daily: counts, sums (ms) and a 120-bucket log-spaced histogram (4 buckets per doubling of
 *   seconds) per time; histograms merge by adding counters. Filled from each fact by a deferred trigger at
 *   commit, so its row locks never wait on an open transaction.
 */
const HISTOGRAM_BUCKETS = 120;

/**
 * A fact: appended at once (no lock shared with other transactions), filed under the workspace's local day.
 * (20261128075600 restores it on down.)
 */
export const REPORT_RECORD = `report_record(ws integer, call bigint, fact_kind smallint, fact_at timestamptz, fact_ms bigint, op integer, grp integer, ch integer)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
BEGIN
  SELECT time_zone INTO tz FROM workspaces WHERE id = ws;
  INSERT INTO report_facts (workspace_id, call_id, kind, at, day, ms, operator_id, group_id, channel_id)
  VALUES (ws, call, fact_kind, fact_at, (fact_at AT TIME ZONE coalesce(tz, 'America/Sao_Paulo'))::date, fact_ms, op, grp, ch);
END $$`;

/**
 * The daily row of a fact, added when its transaction commits: the row lock a busy day's row takes is held
 * for the commit only, so an open transaction never holds up another call of the workspace (the same reason
 * protocols are numbered at commit). A rolled-back transaction adds nothing, like its facts. (20261128075500
 * restores it on down.)
 */
export const REPORT_AGGREGATE = `report_aggregate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prefix text;
BEGIN
  IF NEW.kind = 1 THEN
    INSERT INTO report_daily AS d (workspace_id, day, operator_id, channel_id, group_id, new_count)
    VALUES (NEW.workspace_id, NEW.day, coalesce(NEW.operator_id, 0), NEW.channel_id, coalesce(NEW.group_id, 0), 1)
    ON CONFLICT (workspace_id, day, operator_id, channel_id, group_id) DO UPDATE SET new_count = d.new_count + 1;
  ELSIF NEW.kind = 2 THEN
    INSERT INTO report_daily AS d (workspace_id, day, operator_id, channel_id, group_id, resolved_count)
    VALUES (NEW.workspace_id, NEW.day, coalesce(NEW.operator_id, 0), NEW.channel_id, coalesce(NEW.group_id, 0), 1)
    ON CONFLICT (workspace_id, day, operator_id, channel_id, group_id) DO UPDATE SET resolved_count = d.resolved_count + 1;
  ELSE
    prefix := CASE NEW.kind WHEN 3 THEN 'tme' WHEN 4 THEN 'tmr' ELSE 'tma' END;
    EXECUTE format(
      'INSERT INTO report_daily AS d (workspace_id, day, operator_id, channel_id, group_id, %1$I, %2$I, %3$I)
       VALUES ($1, $2, $3, $4, $5, 1, $6, (SELECT array_agg(CASE WHEN i = $7 THEN 1 ELSE 0 END ORDER BY i) FROM generate_series(1, ${HISTOGRAM_BUCKETS}) AS i))
       ON CONFLICT (workspace_id, day, operator_id, channel_id, group_id)
       DO UPDATE SET %1$I = d.%1$I + 1, %2$I = d.%2$I + $6, %3$I[$7] = d.%3$I[$7] + 1',
      prefix || '_count', prefix || '_sum_ms', prefix || '_hist')
    USING NEW.workspace_id, NEW.day, coalesce(NEW.operator_id, 0), NEW.channel_id, coalesce(NEW.group_id, 0), NEW.ms, report_bucket(NEW.ms);
  END IF;
  RETURN NULL;
END $$`;

export async function up(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);

  await sql(`CREATE TABLE report_calls (
    call_id bigint PRIMARY KEY REFERENCES calls (id) ON DELETE CASCADE,
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    channel_id integer NOT NULL,
    opened_at timestamptz NOT NULL,
    person_at timestamptz,
    bot_active boolean NOT NULL DEFAULT false
  )`);
  await sql('CREATE INDEX report_calls_workspace_idx ON report_calls (workspace_id, call_id)');

  await sql(`CREATE TABLE report_facts (
    id bigserial PRIMARY KEY,
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    call_id bigint NOT NULL,
    kind smallint NOT NULL CHECK (kind BETWEEN 1 AND 5),
    at timestamptz NOT NULL,
    day date NOT NULL,
    ms bigint CHECK (ms >= 0),
    operator_id integer,
    group_id integer,
    channel_id integer NOT NULL
  )`);
  // Period reads (tag filters, drill-down, rebuilds) and the facts of one call.
  await sql('CREATE INDEX report_facts_workspace_at_idx ON report_facts (workspace_id, at)');
  await sql('CREATE INDEX report_facts_call_idx ON report_facts (call_id)');
  // The team table's calls per agent in a period.
  await sql('CREATE INDEX report_facts_workspace_operator_idx ON report_facts (workspace_id, operator_id, at)');

  await sql(`CREATE TABLE report_daily (
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day date NOT NULL,
    operator_id integer NOT NULL DEFAULT 0,
    channel_id integer NOT NULL,
    group_id integer NOT NULL DEFAULT 0,
    new_count integer NOT NULL DEFAULT 0,
    resolved_count integer NOT NULL DEFAULT 0,
    tme_count integer NOT NULL DEFAULT 0,
    tme_sum_ms bigint NOT NULL DEFAULT 0,
    tme_hist integer[] NOT NULL DEFAULT array_fill(0, ARRAY[${HISTOGRAM_BUCKETS}]),
    tmr_count integer NOT NULL DEFAULT 0,
    tmr_sum_ms bigint NOT NULL DEFAULT 0,
    tmr_hist integer[] NOT NULL DEFAULT array_fill(0, ARRAY[${HISTOGRAM_BUCKETS}]),
    tma_count integer NOT NULL DEFAULT 0,
    tma_sum_ms bigint NOT NULL DEFAULT 0,
    tma_hist integer[] NOT NULL DEFAULT array_fill(0, ARRAY[${HISTOGRAM_BUCKETS}]),
    PRIMARY KEY (workspace_id, day, operator_id, channel_id, group_id)
  )`);

  // Bucket of a time: 1 under one second, k >= 2 for [2^((k-2)/4), 2^((k-1)/4)) seconds.
  await sql(`CREATE FUNCTION report_bucket(ms bigint) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN ms < 1000 THEN 1 ELSE least(${HISTOGRAM_BUCKETS}, 2 + floor(4 * log(2, ms / 1000.0)))::integer END
  $$`);

  await sql(`CREATE FUNCTION ${REPORT_RECORD}`);

  await sql(`CREATE FUNCTION ${REPORT_AGGREGATE}`);
  await sql('CREATE CONSTRAINT TRIGGER report_facts_aggregate AFTER INSERT ON report_facts DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION report_aggregate()');

  // A call opens: it needs a person from its opening until a bot session takes it.
  await sql(`CREATE FUNCTION report_call_opened() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ch integer;
BEGIN
  SELECT channel_id INTO ch FROM customer_platforms WHERE id = NEW.customer_platform_id;
  INSERT INTO report_calls (call_id, workspace_id, channel_id, opened_at, person_at) VALUES (NEW.id, NEW.workspace_id, ch, NEW.created_at, NEW.created_at)
  ON CONFLICT (call_id) DO NOTHING;
  PERFORM report_record(NEW.workspace_id, NEW.id, 1::smallint, NEW.created_at, NULL, NEW.operator_id, NEW.group_id, ch);
  RETURN NULL;
END $$`);
  await sql('CREATE TRIGGER report_call_opened AFTER INSERT ON calls FOR EACH ROW EXECUTE FUNCTION report_call_opened()');

  // The first agent reply (TME), an answer to a waiting customer (TMR), the finish (resolved, TMA).
  await sql(`CREATE FUNCTION report_call_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rc report_calls%ROWTYPE;
  answered_at timestamptz;
BEGIN
  SELECT * INTO rc FROM report_calls WHERE call_id = NEW.id;
  IF NOT FOUND THEN
    -- A call opened before the reports existed: it needed a person from its opening (no opened fact: the
    -- backfill owns history).
    INSERT INTO report_calls (call_id, workspace_id, channel_id, opened_at, person_at)
    SELECT NEW.id, NEW.workspace_id, cp.channel_id, NEW.created_at, NEW.created_at FROM customer_platforms cp WHERE cp.id = NEW.customer_platform_id
    RETURNING * INTO rc;
  END IF;
  IF OLD.first_response_at IS NULL AND NEW.first_response_at IS NOT NULL AND OLD.waiting_since IS NOT NULL AND rc.person_at IS NOT NULL THEN
    PERFORM report_record(NEW.workspace_id, NEW.id, 3::smallint, NEW.first_response_at,
      greatest(0, round(extract(epoch FROM NEW.first_response_at - rc.person_at) * 1000))::bigint, NEW.operator_id, NEW.group_id, rc.channel_id);
  END IF;
  IF NEW.response_count > OLD.response_count AND OLD.waiting_since IS NOT NULL AND rc.person_at IS NOT NULL THEN
    answered_at := OLD.waiting_since + (NEW.response_time_sum_ms - OLD.response_time_sum_ms) * interval '1 millisecond';
    PERFORM report_record(NEW.workspace_id, NEW.id, 4::smallint, answered_at,
      greatest(0, round(extract(epoch FROM answered_at - greatest(OLD.waiting_since, rc.person_at)) * 1000))::bigint, NEW.operator_id, NEW.group_id, rc.channel_id);
  END IF;
  IF NOT OLD.is_finished AND NEW.is_finished THEN
    PERFORM report_record(NEW.workspace_id, NEW.id, 2::smallint, NEW.finished_at, NULL, NEW.operator_id, NEW.group_id, rc.channel_id);
    IF NEW.first_response_at IS NOT NULL THEN
      PERFORM report_record(NEW.workspace_id, NEW.id, 5::smallint, NEW.finished_at,
        greatest(0, round(extract(epoch FROM NEW.finished_at - NEW.first_response_at) * 1000))::bigint, NEW.operator_id, NEW.group_id, rc.channel_id);
    END IF;
  END IF;
  RETURN NULL;
END $$`);
  await sql(`CREATE TRIGGER report_call_changed AFTER UPDATE ON calls FOR EACH ROW
    WHEN (OLD.first_response_at IS DISTINCT FROM NEW.first_response_at OR OLD.response_count <> NEW.response_count OR OLD.is_finished <> NEW.is_finished)
    EXECUTE FUNCTION report_call_changed()`);

  // A bot takes the call: no clock runs. Its session ends (hand-off, path ran out, failure, manual take-over): a person is needed from then.
  await sql(`CREATE FUNCTION report_bot_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE report_calls SET person_at = NULL, bot_active = true WHERE call_id = NEW.call_id;
  ELSE
    UPDATE report_calls SET person_at = coalesce(NEW.finished_at, now()), bot_active = false WHERE call_id = NEW.call_id AND bot_active;
  END IF;
  RETURN NULL;
END $$`);
  await sql(`CREATE TRIGGER report_bot_session_started AFTER INSERT ON bot_sessions FOR EACH ROW
    WHEN (NEW.status = 'active' AND NEW.call_id IS NOT NULL) EXECUTE FUNCTION report_bot_session()`);
  await sql(`CREATE TRIGGER report_bot_session_ended AFTER UPDATE OF status ON bot_sessions FOR EACH ROW
    WHEN (OLD.status = 'active' AND NEW.status <> 'active' AND NEW.call_id IS NOT NULL) EXECUTE FUNCTION report_bot_session()`);
}

export async function down(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  await sql('DROP TRIGGER IF EXISTS report_bot_session_ended ON bot_sessions');
  await sql('DROP TRIGGER IF EXISTS report_bot_session_started ON bot_sessions');
  await sql('DROP FUNCTION IF EXISTS report_bot_session()');
  await sql('DROP TRIGGER IF EXISTS report_call_changed ON calls');
  await sql('DROP FUNCTION IF EXISTS report_call_changed()');
  await sql('DROP TRIGGER IF EXISTS report_call_opened ON calls');
  await sql('DROP FUNCTION IF EXISTS report_call_opened()');
  await sql('DROP FUNCTION IF EXISTS report_record(integer, bigint, smallint, timestamptz, bigint, integer, integer, integer)');
  await sql('DROP TRIGGER IF EXISTS report_facts_aggregate ON report_facts');
  await sql('DROP FUNCTION IF EXISTS report_aggregate()');
  await sql('DROP FUNCTION IF EXISTS report_bucket(bigint)');
  await sql('DROP TABLE IF EXISTS report_daily');
  await sql('DROP TABLE IF EXISTS report_facts');
  await sql('DROP TABLE IF EXISTS report_calls');
}
