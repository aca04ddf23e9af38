import type { Knex } from 'knex';

/**
 * Web Push subscriptions (issue 28, docs/pwa.md): one row per device (browser push endpoint) on which an
 * agent turned on "Notificações neste aparelho" in a workspace. `p256dh`/`auth` are the browser's keys for
 * the RFC 8291 payload encryption. Deleted when the device is removed, the agent logs out on it, or the
 * push service answers 404/410 for the endpoint.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_subscriptions', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.integer('operator_id').notNullable().references('operators.id').onDelete('CASCADE');
    t.text('endpoint').notNullable();
    t.text('p256dh').notNullable();
    t.text('auth').notNullable();
    // A label for the device list ("Chrome no Android"), derived from the User-Agent when subscribing.
    t.text('user_agent').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'operator_id', 'endpoint'], { indexName: 'push_subscriptions_operator_endpoint_key' });
  });
  await knex.raw('ALTER TABLE push_subscriptions ADD CONSTRAINT push_subscriptions_endpoint_check CHECK (length(endpoint) BETWEEN 1 AND 2048)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('push_subscriptions');
}
