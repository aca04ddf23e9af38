import type { Knex } from 'knex';

/**
 * Meta's webhook batches (docs/channels/meta.md): POST /api/hooks/meta stores the verified body here and
 * answers 200 at once; the batch is then processed entry by entry (each routed to the channel of its page
 * or Instagram account). A batch whose processing died is picked up again by the api's sweep; processing
 * is idempotent (message ids unique per channel), so a second pass stores nothing twice. Not tenant-owned:
 * one batch may carry entries of several workspaces, and it is read only by the router.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('meta_webhook_batches', (t) => {
    t.bigIncrements('id');
    t.string('object', 40).notNullable();
    t.jsonb('payload').notNullable();
    t.smallint('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('claimed_until', { useTz: true });
    t.timestamp('processed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // The sweep reads only the unprocessed ones, oldest first.
  await knex.raw('CREATE INDEX meta_webhook_batches_pending_idx ON meta_webhook_batches (created_at, id) WHERE processed_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('meta_webhook_batches');
}
