import type { Knex } from 'knex';

/**
 * Transactional outbox for webhooks (docs/webhooks.md): a delivery row is written in the transaction of the
 * change that causes it; `workflow_started_at` says whether its `webhook:{id}` workflow was started, so a
 * sweep can start the ones a crash (or an unreachable Temporal) left behind.
 *
 * Round-robin marker (docs/assignment.md): `calls.auto_assigned_operator_id` is the agent a group rule's
 * rotation picked for the call. While the call is still with that agent and unanswered, it goes back to the
 * rotation when the agent goes offline, is deactivated or leaves the group.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.timestamp('workflow_started_at', { useTz: true });
  });
  // Existing rows were started after commit already (or marked failed when they could not be).
  await knex.raw('UPDATE webhook_deliveries SET workflow_started_at = created_at');
  await knex.raw("CREATE INDEX webhook_deliveries_unstarted_idx ON webhook_deliveries (created_at, id) WHERE status = 'pending' AND workflow_started_at IS NULL");

  await knex.schema.alterTable('calls', (t) => {
    t.integer('auto_assigned_operator_id');
  });
  await knex.raw(
    'ALTER TABLE calls ADD CONSTRAINT calls_auto_assigned_operator_id_foreign FOREIGN KEY (workspace_id, auto_assigned_operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE SET NULL (auto_assigned_operator_id)',
  );
  // Unanswered round-robin calls of one agent: what their going offline hands back.
  await knex.raw(
    'CREATE INDEX calls_auto_assigned_open_idx ON calls (workspace_id, auto_assigned_operator_id) WHERE auto_assigned_operator_id IS NOT NULL AND NOT is_finished AND first_response_at IS NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS calls_auto_assigned_open_idx');
  await knex.schema.alterTable('calls', (t) => {
    t.dropColumn('auto_assigned_operator_id');
  });
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_unstarted_idx');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('workflow_started_at');
  });
}
