import type { Knex } from 'knex';

/**
 * 'Resumo de hoje' shows the oldest waiting conversation per channel: the open calls with a customer message
 * waiting for an answer. Without this index the query walked every open call of the workspace
 * (calls_open_unique) to find the few that wait.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX calls_waiting_idx ON calls (workspace_id, waiting_since) WHERE NOT is_finished AND waiting_since IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS calls_waiting_idx');
}
