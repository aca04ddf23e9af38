import type { Knex } from 'knex';

/**
 * The conversation model (DESIGN.md §2): customer → customer platform (the inbox item, "Conversation" in
 * SPEC) → call (service session with a protocol number) → message. Also favourites, call tags, idempotent
 * inbound events, bot sessions, operator presence and the search indexes. docs/data-model.md explains
 * every index and the counter design.
 */
/** The protocol trigger's function as this migration creates it (20261123160000 restores it on down). */
export const CALLS_ASSIGN_PROTOCOL = `calls_assign_protocol() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.protocol IS NULL THEN
    INSERT INTO call_protocol_counters AS c (workspace_id, last_value) VALUES (NEW.workspace_id, 1)
    ON CONFLICT (workspace_id) DO UPDATE SET last_value = c.last_value + 1
    RETURNING c.last_value INTO NEW.protocol;
  ELSE
    INSERT INTO call_protocol_counters AS c (workspace_id, last_value) VALUES (NEW.workspace_id, NEW.protocol)
    ON CONFLICT (workspace_id) DO UPDATE SET last_value = GREATEST(c.last_value, EXCLUDED.last_value);
  END IF;
  RETURN NEW;
END $$`;

export async function up(knex: Knex): Promise<void> {
  const workspaceFk = (t: Knex.CreateTableBuilder) => t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
  const at = (t: Knex.CreateTableBuilder, column: string) => t.timestamp(column, { useTz: true }).notNullable().defaultTo(knex.fn.now());
  const sql = (text: string) => knex.raw(text);

  // One customer identity in one channel. external_id is the identity there (WhatsApp JID, Telegram chat
  // id, widget visitor id, e-mail address). last_message_at is never null so keyset pages need no NULLS.
  await knex.schema.createTable('customer_platforms', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.integer('channel_id').notNullable();
    t.bigInteger('customer_id').notNullable();
    t.string('external_id', 255).notNullable();
    t.integer('operator_id');
    t.integer('group_id');
    t.integer('bot_id');
    t.bigInteger('current_call_id');
    t.boolean('is_group').notNullable().defaultTo(false);
    t.boolean('is_finished').notNullable().defaultTo(false);
    t.boolean('has_new_messages').notNullable().defaultTo(false);
    // Preview of the last message: {text, type, sender, createdAt}; saves a join per list row.
    t.jsonb('last_message');
    at(t, 'last_message_at');
    at(t, 'created_at');
    at(t, 'updated_at');
    t.unique(['channel_id', 'external_id'], { indexName: 'customer_platforms_channel_external_unique' });
    t.unique(['workspace_id', 'id'], { indexName: 'customer_platforms_workspace_id_unique' });
  });
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_channel_id_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_customer_id_foreign FOREIGN KEY (workspace_id, customer_id) REFERENCES customers (workspace_id, id) ON DELETE CASCADE');
  // The assignee must be a member; leaving the workspace unassigns their conversations.
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE SET NULL (operator_id)');
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_group_id_foreign FOREIGN KEY (workspace_id, group_id) REFERENCES groups (workspace_id, id) ON DELETE SET NULL (group_id)');
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_bot_id_foreign FOREIGN KEY (workspace_id, bot_id) REFERENCES bots (workspace_id, id) ON DELETE SET NULL (bot_id)');
  // Inbox list pages (open / archived), newest activity first, keyset on (last_message_at, id).
  await sql('CREATE INDEX customer_platforms_inbox_idx ON customer_platforms (workspace_id, is_finished, last_message_at DESC, id DESC)');
  // "Meus", agent filters and the unassigned view (operator_id IS NULL is an index condition too).
  await sql('CREATE INDEX customer_platforms_assignee_idx ON customer_platforms (workspace_id, operator_id, is_finished, last_message_at DESC, id DESC)');
  // Group-visible conversations for operators below master (SPEC §6) and group filters.
  await sql('CREATE INDEX customer_platforms_group_idx ON customer_platforms (workspace_id, group_id, is_finished, last_message_at DESC, id DESC)');
  // Unread counters: only open conversations with new messages are in it, so counting stays small.
  await sql('CREATE INDEX customer_platforms_unread_idx ON customer_platforms (workspace_id, operator_id, group_id) WHERE has_new_messages AND NOT is_finished');
  // Waiting (open, unassigned) counts for the inbox and the dashboard.
  await sql('CREATE INDEX customer_platforms_waiting_idx ON customer_platforms (workspace_id, group_id, created_at) WHERE operator_id IS NULL AND NOT is_finished');
  // Contact panel "channels" and customer merge/delete.
  await sql('CREATE INDEX customer_platforms_customer_idx ON customer_platforms (customer_id)');
  // Bot deletion clears bot_id without scanning every conversation.
  await sql('CREATE INDEX customer_platforms_bot_idx ON customer_platforms (bot_id) WHERE bot_id IS NOT NULL');

  // Per-operator favourites ("Favoritos" segment).
  await knex.schema.createTable('customer_platform_favorites', (t) => {
    workspaceFk(t);
    t.integer('operator_id').notNullable();
    t.bigInteger('customer_platform_id').notNullable();
    at(t, 'created_at');
    t.primary(['operator_id', 'customer_platform_id']);
  });
  await sql('ALTER TABLE customer_platform_favorites ADD CONSTRAINT customer_platform_favorites_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE CASCADE');
  await sql('ALTER TABLE customer_platform_favorites ADD CONSTRAINT customer_platform_favorites_customer_platform_id_foreign FOREIGN KEY (workspace_id, customer_platform_id) REFERENCES customer_platforms (workspace_id, id) ON DELETE CASCADE');
  await sql('CREATE INDEX customer_platform_favorites_workspace_operator_idx ON customer_platform_favorites (workspace_id, operator_id)');
  await sql('CREATE INDEX customer_platform_favorites_customer_platform_idx ON customer_platform_favorites (customer_platform_id)');

  // One counter row per workspace: allocating a protocol locks that row only, never the calls table.
  await knex.schema.createTable('call_protocol_counters', (t) => {
    t.integer('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.bigInteger('last_value').notNullable().defaultTo(0);
  });

  // A service session. waiting_since marks the oldest customer message not yet answered; answering adds
  // the wait to response_time_sum_ms/response_count, so TMR needs no scan of the messages.
  await knex.schema.createTable('calls', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.bigInteger('customer_platform_id').notNullable();
    t.bigInteger('protocol').notNullable();
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    t.integer('group_id');
    at(t, 'created_at');
    t.timestamp('first_response_at', { useTz: true });
    t.timestamp('waiting_since', { useTz: true });
    t.integer('response_count').notNullable().defaultTo(0);
    t.bigInteger('response_time_sum_ms').notNullable().defaultTo(0);
    t.timestamp('finished_at', { useTz: true });
    t.boolean('is_finished').notNullable().defaultTo(false);
    t.unique(['workspace_id', 'protocol'], { indexName: 'calls_workspace_protocol_unique' });
    // Target of messages' composite key; also the call history of a conversation (ids grow with time).
    t.unique(['customer_platform_id', 'id'], { indexName: 'calls_customer_platform_id_unique' });
  });
  await sql('ALTER TABLE calls ADD CONSTRAINT calls_customer_platform_id_foreign FOREIGN KEY (workspace_id, customer_platform_id) REFERENCES customer_platforms (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE calls ADD CONSTRAINT calls_group_id_foreign FOREIGN KEY (workspace_id, group_id) REFERENCES groups (workspace_id, id) ON DELETE SET NULL (group_id)');
  await sql('ALTER TABLE calls ADD CONSTRAINT calls_finished_check CHECK (is_finished = (finished_at IS NOT NULL))');
  await sql('ALTER TABLE calls ADD CONSTRAINT calls_response_check CHECK (response_count >= 0 AND response_time_sum_ms >= 0)');
  // At most one open call per conversation: two racing inbound messages cannot open two calls.
  await sql('CREATE UNIQUE INDEX calls_open_unique ON calls (customer_platform_id) WHERE NOT is_finished');
  // Reports: calls opened / finished in a period, per agent, per group.
  await sql('CREATE INDEX calls_workspace_created_idx ON calls (workspace_id, created_at)');
  await sql('CREATE INDEX calls_workspace_finished_idx ON calls (workspace_id, finished_at) WHERE is_finished');
  await sql('CREATE INDEX calls_workspace_operator_idx ON calls (workspace_id, operator_id, created_at)');
  await sql('CREATE INDEX calls_workspace_group_idx ON calls (workspace_id, group_id, created_at) WHERE group_id IS NOT NULL');
  // Protocols are gapless per workspace. A protocol given explicitly (imports) moves the counter past it.
  await sql(`CREATE FUNCTION ${CALLS_ASSIGN_PROTOCOL}`);
  await sql('CREATE TRIGGER calls_assign_protocol BEFORE INSERT ON calls FOR EACH ROW EXECUTE FUNCTION calls_assign_protocol()');

  // The current call must be one of this conversation's calls.
  await sql('ALTER TABLE customer_platforms ADD CONSTRAINT customer_platforms_current_call_id_foreign FOREIGN KEY (id, current_call_id) REFERENCES calls (customer_platform_id, id) ON DELETE SET NULL (current_call_id)');

  // Tags applied to a call (the conversation's tags are its current call's tags).
  await knex.schema.createTable('call_labels', (t) => {
    workspaceFk(t);
    t.bigInteger('call_id').notNullable().references('calls.id').onDelete('CASCADE');
    t.integer('label_id').notNullable().references('labels.id').onDelete('CASCADE');
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    at(t, 'created_at');
    t.primary(['call_id', 'label_id']);
  });
  // Tags report (times used in a period) and label deletion.
  await sql('CREATE INDEX call_labels_workspace_created_idx ON call_labels (workspace_id, created_at)');
  await sql('CREATE INDEX call_labels_label_idx ON call_labels (label_id)');

  // channel_id is copied from the conversation by a trigger so (channel_id, external_id) can be unique.
  await knex.schema.createTable('messages', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.integer('channel_id').notNullable();
    t.bigInteger('customer_platform_id').notNullable();
    t.bigInteger('call_id').notNullable();
    t.string('external_id', 255);
    // Quill Delta operations ([{insert: 'text'}]) or file entries ([{key, fileName, mime, size}]).
    t.jsonb('content').notNullable().defaultTo('[]');
    // Plain text derived from content: search, previews, text-only channels.
    t.text('text').notNullable().defaultTo('');
    t.smallint('type').notNullable().defaultTo(0);
    t.smallint('status').notNullable().defaultTo(1);
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    t.string('sender', 10).notNullable();
    t.boolean('is_deleted').notNullable().defaultTo(false);
    t.boolean('is_media').notNullable().defaultTo(false);
    t.bigInteger('reply_to_id').references('messages.id').onDelete('SET NULL');
    // E-mail: {from, to, cc, subject, messageId, inReplyTo, references}; WhatsApp groups: participant.
    t.jsonb('extra_data').notNullable().defaultTo('{}');
    at(t, 'created_at');
    at(t, 'updated_at');
  });
  await sql('ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type BETWEEN 0 AND 4)');
  await sql('ALTER TABLE messages ADD CONSTRAINT messages_status_check CHECK (status BETWEEN 1 AND 4)');
  await sql("ALTER TABLE messages ADD CONSTRAINT messages_sender_check CHECK (sender IN ('customer', 'operator', 'bot', 'system'))");
  await sql('ALTER TABLE messages ADD CONSTRAINT messages_customer_platform_id_foreign FOREIGN KEY (workspace_id, customer_platform_id) REFERENCES customer_platforms (workspace_id, id) ON DELETE CASCADE');
  // A message's call must be a call of the same conversation.
  await sql('ALTER TABLE messages ADD CONSTRAINT messages_call_id_foreign FOREIGN KEY (customer_platform_id, call_id) REFERENCES calls (customer_platform_id, id) ON DELETE CASCADE');
  // A repeated send or webhook cannot store the same provider message twice.
  await sql('CREATE UNIQUE INDEX messages_channel_external_unique ON messages (channel_id, external_id) WHERE external_id IS NOT NULL');
  // Message pages of a conversation, newest first, keyset on (created_at, id).
  await sql('CREATE INDEX messages_page_idx ON messages (customer_platform_id, created_at DESC, id DESC)');
  // Messages of one call (/inbox/messages?callId) and the cascade from calls.
  await sql('CREATE INDEX messages_call_idx ON messages (call_id, created_at DESC, id DESC)');
  // Contact media tab: a small partial index.
  await sql('CREATE INDEX messages_media_idx ON messages (customer_platform_id, created_at DESC, id DESC) WHERE is_media AND NOT is_deleted');
  // Volume reports and workspace deletion.
  await sql('CREATE INDEX messages_workspace_created_idx ON messages (workspace_id, created_at)');
  // Deleting a message (or a conversation's messages) clears replies pointing at it without a scan.
  await sql('CREATE INDEX messages_reply_to_idx ON messages (reply_to_id) WHERE reply_to_id IS NOT NULL');
  // E-mail threading: In-Reply-To/References of an inbound mail name the Message-ID of an earlier one.
  await sql("CREATE INDEX messages_email_message_id_idx ON messages (channel_id, (extra_data->>'messageId')) WHERE extra_data->>'messageId' IS NOT NULL");
  await sql(`CREATE FUNCTION messages_copy_channel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT channel_id INTO NEW.channel_id FROM customer_platforms WHERE id = NEW.customer_platform_id;
  RETURN NEW;
END $$`);
  await sql('CREATE TRIGGER messages_copy_channel BEFORE INSERT OR UPDATE OF customer_platform_id, channel_id ON messages FOR EACH ROW EXECUTE FUNCTION messages_copy_channel()');

  // Everything a channel delivers, stored before it is processed; a repeated webhook hits the unique key.
  await knex.schema.createTable('inbound_events', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.integer('channel_id').notNullable();
    t.string('external_id', 255).notNullable();
    t.string('kind', 40).notNullable().defaultTo('message');
    t.jsonb('payload').notNullable();
    at(t, 'received_at');
    t.timestamp('processed_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.unique(['channel_id', 'external_id'], { indexName: 'inbound_events_channel_external_unique' });
  });
  await sql('ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_channel_id_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE');
  // The recovery sweep finds events whose processing died after the 200 was sent.
  await sql('CREATE INDEX inbound_events_pending_idx ON inbound_events (received_at) WHERE processed_at IS NULL');
  await sql('CREATE INDEX inbound_events_workspace_received_idx ON inbound_events (workspace_id, received_at)');

  // A bot run on a conversation; the workflow (bot-session:{conversationId}) holds the state.
  await knex.schema.createTable('bot_sessions', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.bigInteger('customer_platform_id').notNullable();
    t.integer('bot_id').notNullable();
    t.bigInteger('call_id').references('calls.id').onDelete('SET NULL');
    t.string('workflow_id', 200).notNullable();
    t.string('status', 20).notNullable().defaultTo('active');
    at(t, 'created_at');
    t.timestamp('finished_at', { useTz: true });
  });
  await sql("ALTER TABLE bot_sessions ADD CONSTRAINT bot_sessions_status_check CHECK (status IN ('active', 'finished', 'expired', 'transferred', 'canceled', 'failed'))");
  await sql('ALTER TABLE bot_sessions ADD CONSTRAINT bot_sessions_customer_platform_id_foreign FOREIGN KEY (workspace_id, customer_platform_id) REFERENCES customer_platforms (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE bot_sessions ADD CONSTRAINT bot_sessions_bot_id_foreign FOREIGN KEY (workspace_id, bot_id) REFERENCES bots (workspace_id, id) ON DELETE CASCADE');
  await sql("CREATE UNIQUE INDEX bot_sessions_active_unique ON bot_sessions (customer_platform_id) WHERE status = 'active'");
  await sql('CREATE INDEX bot_sessions_bot_idx ON bot_sessions (workspace_id, bot_id, created_at)');
  await sql('CREATE INDEX bot_sessions_call_idx ON bot_sessions (call_id) WHERE call_id IS NOT NULL');

  // Realtime connections of operators: "agents online / connected today" and the online set auto-assignment
  // picks from. workspace_members.is_online stays the quick flag; these rows are the history.
  await knex.schema.createTable('operator_sessions', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.integer('operator_id').notNullable();
    t.string('client_id', 120).notNullable();
    at(t, 'connected_at');
    at(t, 'last_seen_at');
    t.timestamp('disconnected_at', { useTz: true });
  });
  await sql('ALTER TABLE operator_sessions ADD CONSTRAINT operator_sessions_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE CASCADE');
  await sql('CREATE INDEX operator_sessions_workspace_connected_idx ON operator_sessions (workspace_id, connected_at)');
  await sql('CREATE INDEX operator_sessions_open_idx ON operator_sessions (workspace_id, operator_id) WHERE disconnected_at IS NULL');

  // Message text search: full-text (smaller and cheaper to keep than trigrams on 10M rows). Queries must
  // use the same expression: to_tsvector('portuguese', text) @@ websearch_to_tsquery('portuguese', $1).
  await sql("CREATE INDEX messages_text_search_idx ON messages USING gin (to_tsvector('portuguese', text)) WHERE NOT is_deleted");
  // Contact search is a substring ILIKE on name/phone/e-mail: trigram indexes when pg_trgm can be had.
  // Servers without the extension (or where we may not create it) run without them.
  await sql(`DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
     AND EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION pg_trgm;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'pg_trgm not created (%); contact search runs without trigram indexes', SQLERRM;
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX customers_name_trgm_idx ON customers USING gin (name gin_trgm_ops)';
    EXECUTE 'CREATE INDEX customers_phone_trgm_idx ON customers USING gin (phone gin_trgm_ops)';
    EXECUTE 'CREATE INDEX customers_email_trgm_idx ON customers USING gin (email gin_trgm_ops)';
  END IF;
END $$`);
}

export async function down(knex: Knex): Promise<void> {
  // pg_trgm stays installed: other objects may use it, and up creates it only when missing.
  await knex.raw('DROP INDEX IF EXISTS customers_name_trgm_idx, customers_phone_trgm_idx, customers_email_trgm_idx');
  for (const table of ['operator_sessions', 'bot_sessions', 'inbound_events', 'messages', 'call_labels']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('ALTER TABLE customer_platforms DROP CONSTRAINT IF EXISTS customer_platforms_current_call_id_foreign');
  for (const table of ['calls', 'call_protocol_counters', 'customer_platform_favorites', 'customer_platforms']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('DROP FUNCTION IF EXISTS messages_copy_channel()');
  await knex.raw('DROP FUNCTION IF EXISTS calls_assign_protocol()');
}
