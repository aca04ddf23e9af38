import type { Knex } from 'knex';

/**
 * WhatsApp QR lines (docs/channels/whatsapp.md "QR transport"):
 * - `whatsapp_auth_state`: the Baileys session of a line (its creds and every signal key), one row per
 *   (type, id), the value sealed with AES-256-GCM (activities/channels/whatsapp/stateCipher.ts), so a worker
 *   restart resumes the session without a new QR and nothing readable sits in the database.
 * - `whatsapp_connections`: what the socket last reported (the pending QR the reading modal polls, the
 *   linked account's JID and LID).
 * - `whatsapp_lid_mappings`: LID ↔ phone JID pairs as WhatsApp reveals them, so one person stays one
 *   customer whichever address a message comes from.
 * All three go with their channel.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsapp_auth_state', (t) => {
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.integer('channel_id').notNullable();
    t.string('type', 40).notNullable();
    t.string('key_id', 255).notNullable();
    t.binary('value').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'channel_id', 'type', 'key_id']);
  });
  await knex.raw(
    'ALTER TABLE whatsapp_auth_state ADD CONSTRAINT whatsapp_auth_state_channel_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE',
  );

  await knex.schema.createTable('whatsapp_connections', (t) => {
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.integer('channel_id').notNullable();
    t.text('qrcode');
    t.timestamp('qrcode_at', { useTz: true });
    t.string('me_jid', 100);
    t.string('me_lid', 100);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'channel_id']);
  });
  await knex.raw(
    'ALTER TABLE whatsapp_connections ADD CONSTRAINT whatsapp_connections_channel_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE',
  );

  await knex.schema.createTable('whatsapp_lid_mappings', (t) => {
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.integer('channel_id').notNullable();
    t.string('lid', 100).notNullable();
    t.string('phone_jid', 100).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'channel_id', 'lid']);
    t.index(['workspace_id', 'channel_id', 'phone_jid'], 'whatsapp_lid_mappings_phone_idx');
  });
  await knex.raw(
    'ALTER TABLE whatsapp_lid_mappings ADD CONSTRAINT whatsapp_lid_mappings_channel_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE CASCADE',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('whatsapp_lid_mappings');
  await knex.schema.dropTableIfExists('whatsapp_connections');
  await knex.schema.dropTableIfExists('whatsapp_auth_state');
}
