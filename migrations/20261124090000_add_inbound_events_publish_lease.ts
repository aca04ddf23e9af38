import type { Knex } from 'knex';

/**
 * A lease on an unpublished inbound event (docs/reliability.md, "Crash recovery without an outage"): the
 * republish sweep (api/conversations/republishInbound.ts) claims a batch by setting `publish_claimed_until`
 * in one autocommitted UPDATE, publishes outside any transaction, then sets `published_at`. Another api
 * process skips rows under a live lease; a lease left by a process that died expires and the event is
 * published again (at least once).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbound_events', (t) => {
    t.timestamp('publish_claimed_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inbound_events', (t) => {
    t.dropColumn('publish_claimed_until');
  });
}
