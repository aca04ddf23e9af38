import type { Knex } from 'knex';

/**
 * Meta's webhook batches now hold both of Meta's webhooks (api/channels/hooks/store.ts): the Messenger and
 * Instagram batches of `/api/hooks/meta` (`source = 'meta'`, every row so far) and the WhatsApp Cloud
 * bodies of `/api/hooks/whatsapp[/{identifier}]` (`source = 'whatsapp'`), stored before the answer and
 * processed after it. The sweep hands each row to the processor of its source.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('meta_webhook_batches', (t) => {
    t.string('source', 20).notNullable().defaultTo('meta');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('meta_webhook_batches', (t) => {
    t.dropColumn('source');
  });
}
