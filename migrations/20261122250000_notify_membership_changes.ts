import type { Knex } from 'knex';

/**
 * Membership changes that must cut tokens at once are announced on the balcao_auth channel, so each api
 * process can keep the membership check of every request in memory (api/http/membershipCache.ts):
 * "m:{workspaceId}:{operatorId}" when a membership's level, active flag or token version changes or the
 * row goes, "o:{operatorId}" when an operator's token version changes (password) or the operator goes.
 * NOTIFY is transactional: listeners hear it when the change commits, never for a rollback.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE FUNCTION notify_member_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('balcao_auth', 'm:' || OLD.workspace_id || ':' || OLD.operator_id);
  IF TG_OP = 'UPDATE' AND (NEW.workspace_id, NEW.operator_id) IS DISTINCT FROM (OLD.workspace_id, OLD.operator_id) THEN
    PERFORM pg_notify('balcao_auth', 'm:' || NEW.workspace_id || ':' || NEW.operator_id);
  END IF;
  RETURN NULL;
END $$`);
  await knex.raw(`CREATE FUNCTION notify_operator_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('balcao_auth', 'o:' || OLD.id);
  RETURN NULL;
END $$`);
  // is_online flips with presence many times a day and is not part of the check: no notification for it.
  await knex.raw(`CREATE TRIGGER workspace_members_notify_update AFTER UPDATE ON workspace_members FOR EACH ROW
    WHEN ((OLD.access_level, OLD.is_active, OLD.token_version, OLD.workspace_id, OLD.operator_id)
          IS DISTINCT FROM (NEW.access_level, NEW.is_active, NEW.token_version, NEW.workspace_id, NEW.operator_id))
    EXECUTE FUNCTION notify_member_change()`);
  await knex.raw('CREATE TRIGGER workspace_members_notify_delete AFTER DELETE ON workspace_members FOR EACH ROW EXECUTE FUNCTION notify_member_change()');
  await knex.raw(`CREATE TRIGGER operators_notify_update AFTER UPDATE ON operators FOR EACH ROW
    WHEN (OLD.token_version IS DISTINCT FROM NEW.token_version) EXECUTE FUNCTION notify_operator_change()`);
  await knex.raw('CREATE TRIGGER operators_notify_delete AFTER DELETE ON operators FOR EACH ROW EXECUTE FUNCTION notify_operator_change()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS workspace_members_notify_update ON workspace_members');
  await knex.raw('DROP TRIGGER IF EXISTS workspace_members_notify_delete ON workspace_members');
  await knex.raw('DROP TRIGGER IF EXISTS operators_notify_update ON operators');
  await knex.raw('DROP TRIGGER IF EXISTS operators_notify_delete ON operators');
  await knex.raw('DROP FUNCTION IF EXISTS notify_member_change()');
  await knex.raw('DROP FUNCTION IF EXISTS notify_operator_change()');
}
