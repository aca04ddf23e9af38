import type { Knex } from 'knex';

/**
 * The inbox's counts (issue 31, docs/performance.md "Inbox list and counters"): how many open and how many
 * unread-and-open conversations each bucket holds, a bucket being workspace × channel × assignee × group —
 * exactly the columns the visibility rule and the bucket-shaped segment filters read. The counter call and
 * the list's matchCount sum the buckets a viewer sees instead of counting conversations.
 *
 * Writers never update a shared row: a trigger on customer_platforms inserts delta rows (inbox_count_deltas,
 * insert-only, so concurrent transactions never wait on one another), in the writer's transaction, so a
 * delta commits or rolls back with the change it describes. A periodic job (api/inbox/compactInboxCounts.ts)
 * folds the deltas into inbox_counts in one statement; a read sums both tables in one statement, so every
 * snapshot sees each committed change exactly once, before or after its compaction.
 */
const DELTA = `CREATE FUNCTION inbox_count_delta() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o_open smallint := 0;
  o_unread smallint := 0;
  n_open smallint := 0;
  n_unread smallint := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND NOT OLD.is_finished THEN
    o_open := 1;
    IF OLD.has_new_messages THEN o_unread := 1; END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.is_finished THEN
    n_open := 1;
    IF NEW.has_new_messages THEN n_unread := 1; END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.workspace_id = NEW.workspace_id AND OLD.channel_id = NEW.channel_id
     AND OLD.operator_id IS NOT DISTINCT FROM NEW.operator_id AND OLD.group_id IS NOT DISTINCT FROM NEW.group_id THEN
    -- Same bucket: one row with the difference, none when the counts do not move (a finished row read).
    IF n_open = o_open AND n_unread = o_unread THEN RETURN NULL; END IF;
    INSERT INTO inbox_count_deltas (workspace_id, channel_id, operator_id, group_id, open, unread)
    VALUES (NEW.workspace_id, NEW.channel_id, NEW.operator_id, NEW.group_id, n_open - o_open, n_unread - o_unread);
    RETURN NULL;
  END IF;
  IF o_open <> 0 THEN
    -- A workspace being deleted takes its counts with it (cascade): nothing to take off.
    IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM workspaces WHERE id = OLD.workspace_id) THEN RETURN NULL; END IF;
    INSERT INTO inbox_count_deltas (workspace_id, channel_id, operator_id, group_id, open, unread)
    VALUES (OLD.workspace_id, OLD.channel_id, OLD.operator_id, OLD.group_id, -o_open, -o_unread);
  END IF;
  IF n_open <> 0 THEN
    INSERT INTO inbox_count_deltas (workspace_id, channel_id, operator_id, group_id, open, unread)
    VALUES (NEW.workspace_id, NEW.channel_id, NEW.operator_id, NEW.group_id, n_open, n_unread);
  END IF;
  RETURN NULL;
END $$`;

/** What the counts of every workspace are, counted from the conversations. */
const COUNT_ALL = `INSERT INTO inbox_counts (workspace_id, channel_id, operator_id, group_id, open, unread)
  SELECT workspace_id, channel_id, operator_id, group_id, count(*), count(*) FILTER (WHERE has_new_messages)
  FROM customer_platforms WHERE NOT is_finished GROUP BY 1, 2, 3, 4`;

export async function up(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  // No foreign keys to channels, members or groups: their deletion reaches the conversations (cascade or
  // SET NULL), whose trigger moves the counts. A bucket whose counts reach zero is deleted by the compactor.
  await sql(`CREATE TABLE inbox_counts (
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    channel_id integer NOT NULL,
    operator_id integer,
    group_id integer,
    open integer NOT NULL,
    unread integer NOT NULL
  )`);
  await sql('CREATE UNIQUE INDEX inbox_counts_bucket_unique ON inbox_counts (workspace_id, channel_id, operator_id, group_id) NULLS NOT DISTINCT');
  await sql('CREATE INDEX inbox_counts_empty_idx ON inbox_counts (workspace_id) WHERE open = 0 AND unread = 0');
  await sql(`CREATE TABLE inbox_count_deltas (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    channel_id integer NOT NULL,
    operator_id integer,
    group_id integer,
    open smallint NOT NULL,
    unread smallint NOT NULL
  )`);
  await sql('CREATE INDEX inbox_count_deltas_workspace_idx ON inbox_count_deltas (workspace_id)');
  await sql(DELTA);
  // Writers wait for this commit, so no change falls between the count below and the trigger.
  await sql('LOCK TABLE customer_platforms IN SHARE ROW EXCLUSIVE MODE');
  await sql('CREATE TRIGGER inbox_count_insert AFTER INSERT ON customer_platforms FOR EACH ROW WHEN (NOT NEW.is_finished) EXECUTE FUNCTION inbox_count_delta()');
  await sql('CREATE TRIGGER inbox_count_delete AFTER DELETE ON customer_platforms FOR EACH ROW WHEN (NOT OLD.is_finished) EXECUTE FUNCTION inbox_count_delta()');
  // Most updates (a message's last_message_at, a preview) move no count: the WHEN clause keeps them from
  // calling the function at all. No column list (UPDATE OF ...): it would miss a column changed by a BEFORE
  // trigger rather than named in the SET list.
  await sql(`CREATE TRIGGER inbox_count_update AFTER UPDATE ON customer_platforms
    FOR EACH ROW WHEN ((OLD.workspace_id, OLD.channel_id, OLD.operator_id, OLD.group_id, OLD.is_finished, OLD.has_new_messages)
      IS DISTINCT FROM (NEW.workspace_id, NEW.channel_id, NEW.operator_id, NEW.group_id, NEW.is_finished, NEW.has_new_messages))
    EXECUTE FUNCTION inbox_count_delta()`);
  await sql(COUNT_ALL);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS inbox_count_update ON customer_platforms');
  await knex.raw('DROP TRIGGER IF EXISTS inbox_count_delete ON customer_platforms');
  await knex.raw('DROP TRIGGER IF EXISTS inbox_count_insert ON customer_platforms');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_count_delta()');
  await knex.raw('DROP TABLE IF EXISTS inbox_count_deltas');
  await knex.raw('DROP TABLE IF EXISTS inbox_counts');
}
