import type { Knex } from 'knex';

/**
 * An agent's first reply in a conversation a bot is running ends the bot session; with this on (the
 * default), an unassigned conversation also goes to that agent (issue 28, docs/bots.md "An agent answers").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.boolean('assign_on_manual_reply').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropColumn('assign_on_manual_reply');
  });
}
