import type { Knex } from 'knex';

/**
 * Scheduled messages (docs/scheduled-messages.md): one row per 'Agendar' from a conversation's composer,
 * owned by the `scheduled-message:{id}` workflow that sleeps until `due_at` and sends through the outbound
 * delivery path. `starts_local` is the first occurrence on the workspace's wall clock (`time_zone`) and
 * `occurrence` the index of the next one, so a monthly schedule on the 31st keeps its day after February.
 * `revision` grows with every change; `kicked_revision` is the revision the workflow was last told about
 * (the worker's sweep tells it again when a start or signal was lost). `template` holds an approved
 * WhatsApp template as it was chosen (with its variables' values) for Cloud lines outside the 24-hour window.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduled_messages', (t) => {
    t.bigIncrements('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.bigInteger('customer_platform_id').notNullable();
    t.integer('channel_id').notNullable();
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    t.string('state', 12).notNullable().defaultTo('scheduled');
    t.string('time_zone', 64).notNullable();
    t.string('starts_local', 16).notNullable();
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.string('repeat', 10).notNullable().defaultTo('none');
    t.date('repeat_until');
    t.integer('occurrence').notNullable().defaultTo(0);
    t.text('text').notNullable().defaultTo('');
    t.jsonb('file');
    t.jsonb('template');
    t.integer('sent_count').notNullable().defaultTo(0);
    t.timestamp('last_sent_at', { useTz: true });
    t.bigInteger('last_message_id');
    t.string('error', 500);
    t.integer('canceled_by');
    t.timestamp('canceled_at', { useTz: true });
    t.integer('revision').notNullable().defaultTo(1);
    t.integer('kicked_revision');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  const sql = (text: string) => knex.raw(text);
  await sql("ALTER TABLE scheduled_messages ADD CONSTRAINT scheduled_messages_state_check CHECK (state IN ('scheduled', 'sent', 'failed', 'canceled'))");
  await sql("ALTER TABLE scheduled_messages ADD CONSTRAINT scheduled_messages_repeat_check CHECK (repeat IN ('none', 'daily', 'weekly', 'monthly'))");
  await sql('ALTER TABLE scheduled_messages ADD CONSTRAINT scheduled_messages_customer_platform_id_foreign FOREIGN KEY (workspace_id, customer_platform_id) REFERENCES customer_platforms (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE scheduled_messages ADD CONSTRAINT scheduled_messages_channel_id_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE');
  // The workspace-wide list: newest due first, by state; a conversation's list; the agent and channel filters.
  await sql('CREATE INDEX scheduled_messages_workspace_state_idx ON scheduled_messages (workspace_id, state, due_at)');
  await sql('CREATE INDEX scheduled_messages_conversation_idx ON scheduled_messages (workspace_id, customer_platform_id, due_at)');
  await sql('CREATE INDEX scheduled_messages_operator_idx ON scheduled_messages (workspace_id, operator_id)');
  await sql('CREATE INDEX scheduled_messages_channel_idx ON scheduled_messages (workspace_id, channel_id)');
  // The worker's sweep: pending rows whose workflow has not heard of their last change.
  await sql("CREATE INDEX scheduled_messages_unkicked_idx ON scheduled_messages (id) WHERE state = 'scheduled' AND kicked_revision IS DISTINCT FROM revision");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('scheduled_messages');
}
