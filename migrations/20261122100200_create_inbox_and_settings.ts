import type { Knex } from 'knex';

/**
 * Workspace settings and contacts: groups, quick phrases, business hours, channels ("workspace platforms"),
 * bots, customers with their custom properties, stored files and saved inbox filters (segments).
 *
 * Rows that point at other rows of the same workspace do it through composite foreign keys
 * `(workspace_id, x_id) → x (workspace_id, id)`, so the database itself refuses a reference into another
 * tenant; every referenced table therefore carries a `<table>_workspace_id_unique` on (workspace_id, id).
 * Nullable references use `ON DELETE SET NULL (x_id)` (PostgreSQL 15+) so workspace_id is never cleared.
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };
  const workspaceFk = (t: Knex.CreateTableBuilder) => t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
  const sql = (text: string) => knex.raw(text);

  await knex.schema.createTable('groups', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('name', 120).notNullable();
    t.string('description', 500);
    t.string('icon', 60);
    t.integer('sort').notNullable().defaultTo(0);
    stamps(t);
    t.unique(['workspace_id', 'id'], { indexName: 'groups_workspace_id_unique' });
  });
  await sql('CREATE UNIQUE INDEX groups_name_unique ON groups (workspace_id, lower(name))');
  await sql('CREATE INDEX groups_workspace_sort_idx ON groups (workspace_id, sort, id)');

  // A member row only exists while the operator is a member of the workspace: leaving it leaves the groups.
  await knex.schema.createTable('group_members', (t) => {
    workspaceFk(t);
    t.integer('group_id').notNullable();
    t.integer('operator_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['group_id', 'operator_id']);
  });
  await sql('ALTER TABLE group_members ADD CONSTRAINT group_members_group_id_foreign FOREIGN KEY (workspace_id, group_id) REFERENCES groups (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE group_members ADD CONSTRAINT group_members_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE CASCADE');
  // "Which groups am I in" runs on every visibility check.
  await sql('CREATE INDEX group_members_operator_idx ON group_members (workspace_id, operator_id, group_id)');

  await knex.schema.createTable('quick_phrases', (t) => {
    t.increments('id');
    workspaceFk(t);
    // The owner; private phrases are visible to them only. Cleared (not deleted) when they leave, so
    // public phrases survive; an ownerless private phrase is visible to nobody.
    t.integer('operator_id');
    t.text('phrase').notNullable();
    t.string('tag', 60).notNullable();
    t.string('privacy', 10).notNullable().defaultTo('public');
    t.string('hotkey', 20);
    t.integer('sort').notNullable().defaultTo(0);
    stamps(t);
  });
  await sql("ALTER TABLE quick_phrases ADD CONSTRAINT quick_phrases_privacy_check CHECK (privacy IN ('public', 'private'))");
  // SPEC §5: one leading slash, no other slashes, spaces become underscores.
  await sql("ALTER TABLE quick_phrases ADD CONSTRAINT quick_phrases_tag_check CHECK (tag ~ '^/[^/[:space:]]+$')");
  await sql('ALTER TABLE quick_phrases ADD CONSTRAINT quick_phrases_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE SET NULL (operator_id)');
  await sql('CREATE INDEX quick_phrases_workspace_sort_idx ON quick_phrases (workspace_id, sort, id)');
  await sql('CREATE INDEX quick_phrases_operator_idx ON quick_phrases (workspace_id, operator_id)');

  // days: {mon..sun: {active, hours: [{startHourIndex, endHourIndex}]}} with 15-minute slot indexes 0..96.
  await knex.schema.createTable('business_hours', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('name', 120).notNullable();
    t.jsonb('days').notNullable();
    t.integer('sort').notNullable().defaultTo(0);
    stamps(t);
    t.unique(['workspace_id', 'id'], { indexName: 'business_hours_workspace_id_unique' });
  });
  // knex.raw turns a bare `?` into a binding placeholder: the jsonb and jsonpath ones are escaped.
  await sql(`ALTER TABLE business_hours ADD CONSTRAINT business_hours_days_check CHECK (
    jsonb_typeof(days) = 'object'
    AND days \\?& ARRAY['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
    AND NOT jsonb_path_exists(days, '$.*.hours[*] \\? (!(@.startHourIndex >= 0 && @.endHourIndex <= 96 && @.startHourIndex < @.endHourIndex))')
  )`);
  await sql('CREATE INDEX business_hours_workspace_sort_idx ON business_hours (workspace_id, sort, id)');

  // A channel ("workspace platform"). identifier is the public routing key (widget id, e-mail forwarding
  // address, webhook path): unique across workspaces because inbound traffic is routed by it alone.
  // Credentials the adapter must present to the provider live in config; secrets we only verify are hashed.
  await knex.schema.createTable('channels', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.smallint('platform_id').notNullable();
    t.string('type', 20).notNullable();
    t.string('name', 120).notNullable().defaultTo('');
    t.string('description', 255).notNullable().defaultTo('');
    t.string('phone', 32);
    // Shown raw when unknown (SPEC §4), so no check: adapters report what the provider says.
    t.string('status', 40).notNullable().defaultTo('disconnected');
    t.string('identifier', 255).notNullable().defaultTo(knex.raw("replace(gen_random_uuid()::text, '-', '')"));
    t.string('avatar', 500);
    t.jsonb('config').notNullable().defaultTo('{}');
    t.string('secret_hash', 128);
    t.boolean('allow_groups').notNullable().defaultTo(false);
    t.integer('sort').notNullable().defaultTo(0);
    stamps(t);
    t.unique(['identifier'], { indexName: 'channels_identifier_unique' });
    t.unique(['workspace_id', 'id'], { indexName: 'channels_workspace_id_unique' });
  });
  await sql('ALTER TABLE channels ADD CONSTRAINT channels_platform_id_check CHECK (platform_id BETWEEN 1 AND 7)');
  await sql("ALTER TABLE channels ADD CONSTRAINT channels_type_check CHECK (type IN ('whatsapp', 'telegram', 'facebook', 'widget', 'email', 'custom', 'instagram'))");
  await sql(`ALTER TABLE channels ADD CONSTRAINT channels_type_platform_check CHECK ((platform_id, type) IN (
    (1, 'whatsapp'), (2, 'telegram'), (3, 'facebook'), (4, 'widget'), (5, 'email'), (6, 'custom'), (7, 'instagram')))`);
  await sql('CREATE INDEX channels_workspace_sort_idx ON channels (workspace_id, sort, id)');

  // definition: {channels: [ids], businessHours: [ids], expire: {hours, minutes, message}, paths: [...], layout}.
  await knex.schema.createTable('bots', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('name', 120).notNullable();
    t.boolean('is_active').notNullable().defaultTo(false);
    t.integer('priority').notNullable().defaultTo(0);
    t.string('user_type', 20).notNullable().defaultTo('all');
    t.jsonb('definition').notNullable().defaultTo('{}');
    stamps(t);
    t.unique(['workspace_id', 'id'], { indexName: 'bots_workspace_id_unique' });
  });
  await sql("ALTER TABLE bots ADD CONSTRAINT bots_user_type_check CHECK (user_type IN ('all', 'unregistered', 'registered'))");
  // Picking the bot for an inbound conversation: active bots by priority, highest first.
  await sql('CREATE INDEX bots_workspace_active_idx ON bots (workspace_id, is_active, priority DESC, id)');

  // A contact. name, email and phone are the fixed properties; custom ones live in customer_properties.
  await knex.schema.createTable('customers', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.string('name', 255);
    t.string('phone', 32);
    t.string('email', 254);
    t.string('avatar', 500);
    t.text('details');
    // Who created the contact: a widget/channel visitor or an agent (SPEC §3 actor labels).
    t.string('origin', 10).notNullable().defaultTo('visitor');
    t.timestamp('last_viewed', { useTz: true });
    stamps(t);
    t.unique(['workspace_id', 'id'], { indexName: 'customers_workspace_id_unique' });
  });
  await sql("ALTER TABLE customers ADD CONSTRAINT customers_origin_check CHECK (origin IN ('visitor', 'agent'))");
  // Contacts report and list: newest first, keyset on (created_at, id).
  await sql('CREATE INDEX customers_workspace_created_idx ON customers (workspace_id, created_at DESC, id DESC)');
  // Exact lookups when a channel or an outbound message names a phone or an e-mail address.
  await sql('CREATE INDEX customers_workspace_phone_idx ON customers (workspace_id, phone) WHERE phone IS NOT NULL');
  await sql('CREATE INDEX customers_workspace_email_idx ON customers (workspace_id, lower(email)) WHERE email IS NOT NULL');

  // Custom properties; value capped at 500 characters so (workspace_id, code, value) stays a valid btree key.
  await knex.schema.createTable('customer_properties', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.bigInteger('customer_id').notNullable();
    t.string('label', 120).notNullable();
    t.string('code', 60).notNullable();
    t.string('value', 500).notNullable().defaultTo('');
    stamps(t);
    t.unique(['customer_id', 'code'], { indexName: 'customer_properties_customer_code_unique' });
  });
  await sql("ALTER TABLE customer_properties ADD CONSTRAINT customer_properties_code_check CHECK (code ~ '^[a-z][a-z0-9_]*$')");
  await sql('ALTER TABLE customer_properties ADD CONSTRAINT customer_properties_customer_id_foreign FOREIGN KEY (workspace_id, customer_id) REFERENCES customers (workspace_id, id) ON DELETE CASCADE');
  // Value suggestions (GET /customer/properties) and segment filters customerProps {property, value}.
  await sql('CREATE INDEX customer_properties_workspace_code_value_idx ON customer_properties (workspace_id, code, value)');

  // Uploaded files (attachments, avatars, campaign lists). key is the storage key, unique across workspaces.
  await knex.schema.createTable('stored_files', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.string('key', 255).notNullable();
    t.string('file_name', 255).notNullable();
    t.string('mime', 127).notNullable();
    t.bigInteger('size').notNullable();
    t.string('sha256', 64);
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['key'], { indexName: 'stored_files_key_unique' });
  });
  await sql('ALTER TABLE stored_files ADD CONSTRAINT stored_files_size_check CHECK (size >= 0)');
  await sql('CREATE INDEX stored_files_workspace_created_idx ON stored_files (workspace_id, created_at DESC)');

  // Saved inbox filters. filters: {my, assigned, open, starred, channels[], groups[], agents[], tags[],
  // customerProps {property, value}}. The owner is cleared when they leave, keeping public filters usable.
  await knex.schema.createTable('segments', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.integer('operator_id');
    t.string('name', 120).notNullable();
    t.string('icon', 60);
    t.boolean('is_public').notNullable().defaultTo(false);
    t.string('inbox', 10).notNullable().defaultTo('workspace');
    t.jsonb('filters').notNullable().defaultTo('{}');
    t.integer('sort').notNullable().defaultTo(0);
    stamps(t);
    t.unique(['workspace_id', 'id'], { indexName: 'segments_workspace_id_unique' });
  });
  await sql("ALTER TABLE segments ADD CONSTRAINT segments_inbox_check CHECK (inbox IN ('me', 'workspace'))");
  await sql('ALTER TABLE segments ADD CONSTRAINT segments_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE SET NULL (operator_id)');
  await sql('CREATE INDEX segments_workspace_sort_idx ON segments (workspace_id, sort, id)');
  await sql('CREATE INDEX segments_operator_idx ON segments (workspace_id, operator_id)');

  // Per-operator subscription: subscribed filters show in that operator's inbox sidebar.
  await knex.schema.createTable('segment_subscriptions', (t) => {
    workspaceFk(t);
    t.integer('segment_id').notNullable();
    t.integer('operator_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['segment_id', 'operator_id']);
  });
  await sql('ALTER TABLE segment_subscriptions ADD CONSTRAINT segment_subscriptions_segment_id_foreign FOREIGN KEY (workspace_id, segment_id) REFERENCES segments (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE segment_subscriptions ADD CONSTRAINT segment_subscriptions_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE CASCADE');
  await sql('CREATE INDEX segment_subscriptions_operator_idx ON segment_subscriptions (workspace_id, operator_id)');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'segment_subscriptions',
    'segments',
    'stored_files',
    'customer_properties',
    'customers',
    'bots',
    'channels',
    'business_hours',
    'quick_phrases',
    'group_members',
    'groups',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
