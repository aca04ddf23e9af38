import type { Knex } from 'knex';

/**
 * An invitation to someone who already has a login creates the membership only when accepted, so the
 * token has to remember the level offered, who invited (shown on the accept page) and the groups chosen.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_tokens', (t) => {
    t.smallint('access_level');
    t.integer('invited_by').references('operators.id').onDelete('SET NULL');
    t.jsonb('data').notNullable().defaultTo('{}');
  });
  await knex.raw(
    'ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_access_level_check CHECK (access_level IS NULL OR access_level IN (2, 3, 6, 9))',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE account_tokens DROP CONSTRAINT IF EXISTS account_tokens_access_level_check');
  await knex.schema.alterTable('account_tokens', (t) => {
    t.dropColumn('data');
    t.dropColumn('invited_by');
    t.dropColumn('access_level');
  });
}
