import type { Knex } from 'knex';

/**
 * Internal chat between agents (issue 33, docs/team-chat.md).
 * - team_rooms: one row per conversation of the team. `kind` 'group' is the room of one of the workspace's
 *   groups (its name and members are the group's: derived, never copied); 'room' a room created at level 6+
 *   with its own name and members; 'direct' the messages between two agents (`direct_key` 'lowId:highId',
 *   unique per workspace, so a pair has one).
 * - team_room_members: who is in a 'room' or 'direct' room (group rooms read group_members instead). A row
 *   exists only while the operator is a member of the workspace.
 * - team_messages: author, text, an optional stored file (the upload's reference, as scheduled messages keep
 *   it), edited_at and deleted_at (a deleted message keeps its row, without text or file). Searched with
 *   the conversations' full-text configuration (balcao_pt: Portuguese stemming, accents folded).
 * - team_room_reads: each member's read marker (the last message id they have read) per room.
 *
 * Every group gets its room when it is created (trigger below; the existing ones here), and loses it,
 * with its messages, when the group is deleted.
 */
export async function up(knex: Knex): Promise<void> {
  const sql = (text: string) => knex.raw(text);
  await knex.schema.createTable('team_rooms', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    t.string('name', 80);
    t.integer('group_id');
    t.string('direct_key', 24);
    t.integer('created_by').references('operators.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'id'], { indexName: 'team_rooms_workspace_id_unique' });
  });
  await sql("ALTER TABLE team_rooms ADD CONSTRAINT team_rooms_kind_check CHECK (kind IN ('group', 'room', 'direct'))");
  await sql(`ALTER TABLE team_rooms ADD CONSTRAINT team_rooms_shape_check CHECK (
    (kind = 'group' AND group_id IS NOT NULL AND direct_key IS NULL AND name IS NULL)
    OR (kind = 'room' AND group_id IS NULL AND direct_key IS NULL AND name IS NOT NULL)
    OR (kind = 'direct' AND group_id IS NULL AND direct_key IS NOT NULL AND name IS NULL))`);
  await sql('ALTER TABLE team_rooms ADD CONSTRAINT team_rooms_group_id_foreign FOREIGN KEY (workspace_id, group_id) REFERENCES groups (workspace_id, id) ON DELETE CASCADE');
  await sql('CREATE UNIQUE INDEX team_rooms_group_unique ON team_rooms (workspace_id, group_id) WHERE group_id IS NOT NULL');
  await sql('CREATE UNIQUE INDEX team_rooms_direct_unique ON team_rooms (workspace_id, direct_key) WHERE direct_key IS NOT NULL');

  await knex.schema.createTable('team_room_members', (t) => {
    t.integer('workspace_id').notNullable();
    t.integer('room_id').notNullable();
    t.integer('operator_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['room_id', 'operator_id']);
  });
  await sql('ALTER TABLE team_room_members ADD CONSTRAINT team_room_members_room_id_foreign FOREIGN KEY (workspace_id, room_id) REFERENCES team_rooms (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE team_room_members ADD CONSTRAINT team_room_members_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE CASCADE');
  // "Which rooms am I in": the room list and every subscription check.
  await sql('CREATE INDEX team_room_members_operator_idx ON team_room_members (workspace_id, operator_id, room_id)');

  await knex.schema.createTable('team_messages', (t) => {
    t.bigIncrements('id');
    t.integer('workspace_id').notNullable();
    t.integer('room_id').notNullable();
    t.integer('author_id').references('operators.id').onDelete('SET NULL');
    t.text('body').notNullable().defaultTo('');
    t.jsonb('file');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('edited_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
  });
  await sql('ALTER TABLE team_messages ADD CONSTRAINT team_messages_room_id_foreign FOREIGN KEY (workspace_id, room_id) REFERENCES team_rooms (workspace_id, id) ON DELETE CASCADE');
  // A room's pages (newest first by id), its unread count and its last message.
  await sql('CREATE INDEX team_messages_room_idx ON team_messages (workspace_id, room_id, id)');
  await sql("CREATE INDEX team_messages_search_idx ON team_messages USING gin (to_tsvector('balcao_pt', body)) WHERE deleted_at IS NULL");

  await knex.schema.createTable('team_room_reads', (t) => {
    t.integer('workspace_id').notNullable();
    t.integer('room_id').notNullable();
    t.integer('operator_id').notNullable();
    t.bigInteger('last_read_message_id').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['room_id', 'operator_id']);
  });
  await sql('ALTER TABLE team_room_reads ADD CONSTRAINT team_room_reads_room_id_foreign FOREIGN KEY (workspace_id, room_id) REFERENCES team_rooms (workspace_id, id) ON DELETE CASCADE');
  await sql('ALTER TABLE team_room_reads ADD CONSTRAINT team_room_reads_operator_id_foreign FOREIGN KEY (workspace_id, operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE CASCADE');

  // Every group has its room from the moment it exists.
  await sql(`CREATE FUNCTION team_rooms_for_group() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO team_rooms (workspace_id, kind, group_id) VALUES (NEW.workspace_id, 'group', NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`);
  await sql('CREATE TRIGGER groups_team_room AFTER INSERT ON groups FOR EACH ROW EXECUTE FUNCTION team_rooms_for_group()');
  await sql("INSERT INTO team_rooms (workspace_id, kind, group_id) SELECT workspace_id, 'group', id FROM groups ON CONFLICT DO NOTHING");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS groups_team_room ON groups');
  await knex.raw('DROP FUNCTION IF EXISTS team_rooms_for_group()');
  for (const table of ['team_room_reads', 'team_messages', 'team_room_members', 'team_rooms']) await knex.schema.dropTableIfExists(table);
}
