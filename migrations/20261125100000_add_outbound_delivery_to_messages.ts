import type { Knex } from 'knex';

/**
 * The outbound delivery path (docs/outbound.md): an agent message for a channel with a remote side is
 * committed `pending` and delivered by its `channel-send:{messageId}` workflow. The state lives on the
 * message row, so the inbox shows it and a failed send can be retried from it. Rows of other messages
 * (inbound, notes, the widget's direct path) keep NULL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.string('delivery_state', 10);
    t.text('delivery_error');
    t.integer('delivery_attempts').notNullable().defaultTo(0);
    t.timestamp('delivery_started_at', { useTz: true });
  });
  await knex.raw("ALTER TABLE messages ADD CONSTRAINT messages_delivery_state_check CHECK (delivery_state IN ('pending', 'sent', 'failed'))");
  // The sweep that starts workflows a crash left unstarted reads only pending rows.
  await knex.raw("CREATE INDEX messages_delivery_pending_idx ON messages (id) WHERE delivery_state = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS messages_delivery_pending_idx');
  await knex.raw('ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_delivery_state_check');
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('delivery_started_at');
    t.dropColumn('delivery_attempts');
    t.dropColumn('delivery_error');
    t.dropColumn('delivery_state');
  });
}
