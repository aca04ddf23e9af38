import type { Knex } from 'knex';

/**
 * The hook store (api/channels/hooks/store.ts) holds every webhook answered once stored, not only Meta's:
 * Messenger/Instagram (`source` 'meta'), WhatsApp Cloud ('whatsapp') and now Telegram ('telegram'). Its
 * table takes the store's name; rows, ids and indexes stay.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE meta_webhook_batches RENAME TO hook_events');
  await knex.raw('ALTER INDEX meta_webhook_batches_pkey RENAME TO hook_events_pkey');
  await knex.raw('ALTER INDEX meta_webhook_batches_pending_idx RENAME TO hook_events_pending_idx');
  await knex.raw('ALTER SEQUENCE meta_webhook_batches_id_seq RENAME TO hook_events_id_seq');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER SEQUENCE hook_events_id_seq RENAME TO meta_webhook_batches_id_seq');
  await knex.raw('ALTER INDEX hook_events_pending_idx RENAME TO meta_webhook_batches_pending_idx');
  await knex.raw('ALTER INDEX hook_events_pkey RENAME TO meta_webhook_batches_pkey');
  await knex.raw('ALTER TABLE hook_events RENAME TO meta_webhook_batches');
}
