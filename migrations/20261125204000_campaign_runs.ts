import type { Knex } from 'knex';

/**
 * Campaign runs (issue 15, docs/campaigns.md): the campaign keeps its Cloud template, why it paused or
 * failed; each number keeps what was given, its normalised form, its state through the send (pending →
 * sending → sent → delivered → read, or failed / invalid / duplicate / opted_out), the idempotency key
 * recorded with the send and the provider's id (receipts and replies find it by that id). Opt-outs are per
 * workspace: a customer who answered an opt-out word is skipped by later campaigns.
 */
export async function up(knex: Knex): Promise<void> {
  const sql = (s: string) => knex.raw(s);
  await knex.schema.alterTable('campaigns', (t) => {
    // Cloud lines: an approved template {name, language}; QR lines: null (free text in message).
    t.jsonb('template');
    t.text('pause_reason');
    t.text('error');
    t.integer('total_numbers_invalid').notNullable().defaultTo(0);
  });

  await sql('ALTER TABLE campaign_numbers DROP CONSTRAINT campaign_numbers_campaign_phone_unique');
  await sql('ALTER TABLE campaign_numbers DROP CONSTRAINT campaign_numbers_status_check');
  await knex.schema.alterTable('campaign_numbers', (t) => {
    // The first column as given (cut to 255), the E.164 digits when valid.
    t.string('raw', 255);
    t.string('normalized', 20);
    t.string('idempotency_key', 80);
    t.string('external_id', 255);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('sending_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('read_at', { useTz: true });
  });
  await sql(`ALTER TABLE campaign_numbers ADD CONSTRAINT campaign_numbers_status_check CHECK (status IN (
    'pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'invalid', 'duplicate', 'opted_out', 'skipped'))`);
  // One live row per number and campaign; repeats are kept, as 'duplicate', for the report.
  await sql("CREATE UNIQUE INDEX campaign_numbers_campaign_normalized_unique ON campaign_numbers (campaign_id, normalized) WHERE status <> 'duplicate' AND normalized IS NOT NULL");
  // Receipts (delivered/read) and replies find the campaign number by the provider's message id.
  await sql('CREATE INDEX campaign_numbers_external_idx ON campaign_numbers (workspace_id, external_id) WHERE external_id IS NOT NULL');
  await sql('CREATE INDEX campaign_numbers_workspace_normalized_idx ON campaign_numbers (workspace_id, normalized, sent_at DESC) WHERE external_id IS NOT NULL');

  await knex.schema.createTable('campaign_opt_outs', (t) => {
    t.bigIncrements('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('phone', 20).notNullable();
    t.string('word', 40);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'phone'], { indexName: 'campaign_opt_outs_workspace_phone_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  const sql = (s: string) => knex.raw(s);
  await knex.schema.dropTable('campaign_opt_outs');
  await sql('DROP INDEX campaign_numbers_workspace_normalized_idx');
  await sql('DROP INDEX campaign_numbers_external_idx');
  await sql('DROP INDEX campaign_numbers_campaign_normalized_unique');
  await sql('ALTER TABLE campaign_numbers DROP CONSTRAINT campaign_numbers_status_check');
  await sql("DELETE FROM campaign_numbers WHERE status NOT IN ('pending', 'sent', 'failed', 'skipped')");
  await sql("UPDATE campaign_numbers SET status = 'sent' WHERE status IN ('delivered', 'read')");
  await knex.schema.alterTable('campaign_numbers', (t) => {
    for (const c of ['raw', 'normalized', 'idempotency_key', 'external_id', 'attempts', 'sending_at', 'delivered_at', 'read_at']) t.dropColumn(c);
  });
  await sql("ALTER TABLE campaign_numbers ADD CONSTRAINT campaign_numbers_status_check CHECK (status IN ('pending', 'sent', 'failed', 'skipped'))");
  await sql('ALTER TABLE campaign_numbers ADD CONSTRAINT campaign_numbers_campaign_phone_unique UNIQUE (campaign_id, phone)');
  await knex.schema.alterTable('campaigns', (t) => {
    for (const c of ['template', 'pause_reason', 'error', 'total_numbers_invalid']) t.dropColumn(c);
  });
}
