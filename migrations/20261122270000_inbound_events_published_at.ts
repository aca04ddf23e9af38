import type { Knex } from 'knex';

/**
 * Realtime outbox marker of inbound events (docs/reliability.md): `published_at` is set once the
 * chat.newMessage of a processed event went out. A process killed between the commit and the publish
 * leaves it null, and the republish sweep (api/conversations/republishInbound.ts) finds the row through
 * the partial index. Rows that exist already were published by the code that stored them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbound_events', (t) => {
    t.timestamp('published_at', { useTz: true });
  });
  await knex.raw('UPDATE inbound_events SET published_at = coalesce(processed_at, received_at)');
  await knex.raw('CREATE INDEX inbound_events_unpublished_idx ON inbound_events (processed_at) WHERE published_at IS NULL AND processed_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS inbound_events_unpublished_idx');
  await knex.schema.alterTable('inbound_events', (t) => {
    t.dropColumn('published_at');
  });
}
