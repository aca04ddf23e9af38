import type { Knex } from 'knex';

/**
 * A change of a workspace's row is announced on balcao_auth as "w:{workspaceId}", so each api process can
 * serve GET /api/workspace from its token cache (api/auth/membershipCache.ts) and drop the row as the change
 * commits. NOTIFY is transactional: listeners hear it at commit, never for a rollback. An UPDATE that leaves
 * the row as it was notifies nobody.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION notify_workspace_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('balcao_auth', 'w:' || OLD.id);
  RETURN NULL;
END $$`);
  await knex.raw(`CREATE TRIGGER workspaces_notify_update AFTER UPDATE ON workspaces FOR EACH ROW
    WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_workspace_change()`);
  await knex.raw('CREATE TRIGGER workspaces_notify_delete AFTER DELETE ON workspaces FOR EACH ROW EXECUTE FUNCTION notify_workspace_change()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS workspaces_notify_update ON workspaces');
  await knex.raw('DROP TRIGGER IF EXISTS workspaces_notify_delete ON workspaces');
  await knex.raw('DROP FUNCTION IF EXISTS notify_workspace_change()');
}
