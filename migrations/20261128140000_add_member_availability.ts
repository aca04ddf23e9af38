import type { Knex } from 'knex';

/**
 * Availability an agent chooses in the header (issue 28): 'online' or 'ausente' while logged in; offline is
 * being logged out (no session: workspace_members.is_online false). Auto-assignment and push notifications
 * read it. `away_after_minutes` (null = never) turns an idle agent 'ausente' when the workspace wants it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspace_members', (t) => {
    t.text('availability').notNullable().defaultTo('online');
    t.check(`availability IN ('online', 'ausente')`, [], 'workspace_members_availability_check');
  });
  await knex.schema.alterTable('workspaces', (t) => {
    t.integer('away_after_minutes').nullable();
    t.check('away_after_minutes IS NULL OR away_after_minutes BETWEEN 1 AND 1440', [], 'workspaces_away_after_minutes_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropChecks(['workspaces_away_after_minutes_check']);
    t.dropColumn('away_after_minutes');
  });
  await knex.schema.alterTable('workspace_members', (t) => {
    t.dropChecks(['workspace_members_availability_check']);
    t.dropColumn('availability');
  });
}
