import type { Knex } from 'knex';

/**
 * The team chat's tables (20261130020000) as every tenant table is (test/db/schema.test.ts): a foreign key on
 * workspace_id that cascades from workspaces, and an index led by workspace_id (team_room_reads had none: its
 * primary key leads with room_id). Their rows already went with the workspace through team_rooms; this makes
 * the rule hold table by table.
 */
const TABLES = ['team_room_members', 'team_messages', 'team_room_reads'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_workspace_id_foreign FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE`);
  }
  await knex.raw('CREATE INDEX team_room_reads_workspace_idx ON team_room_reads (workspace_id, operator_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX team_room_reads_workspace_idx');
  for (const table of [...TABLES].reverse()) await knex.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_workspace_id_foreign`);
}
