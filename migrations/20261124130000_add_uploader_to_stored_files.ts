import type { Knex } from 'knex';

/**
 * Storage budgets (docs/widget.md "Storage budgets"): an upload records the widget channel and visitor
 * that sent it, so the api can sum what one visitor, one channel's visitors and one workspace stored,
 * whether or not the file ever reached a message. The indexes carry `size`, so each sum is an
 * index-only range scan.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('stored_files', (t) => {
    t.integer('channel_id');
    t.string('visitor_id', 64);
  });
  // A deleted channel keeps the files its messages name; they just stop counting for a channel.
  await knex.raw(
    'ALTER TABLE stored_files ADD CONSTRAINT stored_files_channel_id_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE SET NULL (channel_id)',
  );
  await knex.raw('CREATE INDEX stored_files_workspace_size_idx ON stored_files (workspace_id) INCLUDE (size)');
  await knex.raw(
    'CREATE INDEX stored_files_channel_visitors_idx ON stored_files (workspace_id, channel_id, created_at) INCLUDE (size) WHERE visitor_id IS NOT NULL',
  );
  await knex.raw(
    'CREATE INDEX stored_files_visitor_idx ON stored_files (workspace_id, channel_id, visitor_id, created_at) INCLUDE (size) WHERE visitor_id IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS stored_files_visitor_idx');
  await knex.raw('DROP INDEX IF EXISTS stored_files_channel_visitors_idx');
  await knex.raw('DROP INDEX IF EXISTS stored_files_workspace_size_idx');
  await knex.raw('ALTER TABLE stored_files DROP CONSTRAINT IF EXISTS stored_files_channel_id_foreign');
  await knex.schema.alterTable('stored_files', (t) => {
    t.dropColumn('visitor_id');
    t.dropColumn('channel_id');
  });
}
