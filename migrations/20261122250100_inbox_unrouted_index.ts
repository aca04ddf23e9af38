import type { Knex } from 'knex';

/**
 * Agents (level 3) see the conversations nobody has and no group has (SPEC §6): that visibility arm is
 * its own keyset walk in GET /inbox and its own count. On the assignee index it must skip every grouped
 * unassigned row, and the planner may instead walk the whole open list filtering (bench inbox-list: 0.8 s
 * at 1M conversations); this partial index holds exactly that arm, newest first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX customer_platforms_unrouted_idx ON customer_platforms (workspace_id, is_finished, last_message_at DESC, id DESC) WHERE operator_id IS NULL AND group_id IS NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS customer_platforms_unrouted_idx');
}
