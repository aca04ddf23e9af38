import type { Knex } from 'knex';

/**
 * Website chat widget visitors (docs/widget.md). A visitor is created by their first message and then
 * authenticates with an opaque session token, kept here only as its SHA-256. visitor_id is the visitor's
 * identity in the channel (customer_platforms.external_id) and a level of their MQTT topic.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('widget_visitors', (t) => {
    t.bigIncrements('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.integer('channel_id').notNullable();
    t.string('visitor_id', 64).notNullable();
    t.string('token_hash', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Every widget call and every visitor MQTT CONNECT looks the session up by its token alone.
    t.unique(['token_hash'], { indexName: 'widget_visitors_token_hash_unique' });
    t.unique(['channel_id', 'visitor_id'], { indexName: 'widget_visitors_channel_visitor_unique' });
  });
  // Deleting the channel ends its visitors' sessions with it.
  await knex.raw(
    'ALTER TABLE widget_visitors ADD CONSTRAINT widget_visitors_channel_id_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE',
  );
  await knex.raw('CREATE INDEX widget_visitors_workspace_channel_idx ON widget_visitors (workspace_id, channel_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('widget_visitors');
}
