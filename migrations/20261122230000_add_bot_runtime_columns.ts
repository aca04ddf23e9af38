import type { Knex } from 'knex';

/**
 * Bot runtime (docs/bots.md).
 * - messages.idempotency_key: a bot message carries `bot-session:{conversationId}#{sessionId}#{step}`; a
 *   retried activity finds its row instead of storing (and sending) the message twice.
 * - customers.name_given_at: set when the contact typed their name into a bot input; with an e-mail it is
 *   what makes a contact "registered" for bot selection (a widget visitor's generated name is not).
 * - bot_sessions.bot_version: the bot's updated_at when the session started (the snapshot it runs).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.string('idempotency_key', 200);
  });
  await knex.raw('CREATE UNIQUE INDEX messages_idempotency_key_unique ON messages (customer_platform_id, idempotency_key) WHERE idempotency_key IS NOT NULL');
  await knex.schema.alterTable('customers', (t) => {
    t.timestamp('name_given_at', { useTz: true });
  });
  await knex.schema.alterTable('bot_sessions', (t) => {
    t.string('bot_version', 40);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bot_sessions', (t) => {
    t.dropColumn('bot_version');
  });
  await knex.schema.alterTable('customers', (t) => {
    t.dropColumn('name_given_at');
  });
  await knex.raw('DROP INDEX IF EXISTS messages_idempotency_key_unique');
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('idempotency_key');
  });
}
