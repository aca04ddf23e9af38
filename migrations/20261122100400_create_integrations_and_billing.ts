import type { Knex } from 'knex';

/**
 * Automation and integrations (assignment rules, webhooks and their deliveries, plugins, API secrets),
 * campaigns with their numbers, billing (coupons, invoices, transactions), contracts and the power-up catalog.
 */
export async function up(knex: Knex): Promise<void> {
  const workspaceFk = (t: Knex.CreateTableBuilder) => t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
  const at = (t: Knex.CreateTableBuilder, column: string) => t.timestamp(column, { useTz: true }).notNullable().defaultTo(knex.fn.now());
  const stamps = (t: Knex.CreateTableBuilder) => {
    at(t, 'created_at');
    at(t, 'updated_at');
  };
  const sql = (text: string) => knex.raw(text);

  // rules: {group, operator, workspacePlatformId}. last_operator_id is the round-robin cursor: the next
  // assignment goes to the first eligible member after it (the rule row is locked while choosing).
  await knex.schema.createTable('assignment_rules', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('name', 120).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.jsonb('rules').notNullable().defaultTo('{}');
    t.integer('sort').notNullable().defaultTo(0);
    t.integer('last_operator_id');
    t.timestamp('last_assigned_at', { useTz: true });
    stamps(t);
  });
  await sql('ALTER TABLE assignment_rules ADD CONSTRAINT assignment_rules_last_operator_id_foreign FOREIGN KEY (workspace_id, last_operator_id) REFERENCES workspace_members (workspace_id, operator_id) ON DELETE SET NULL (last_operator_id)');
  await sql('CREATE INDEX assignment_rules_workspace_active_idx ON assignment_rules (workspace_id, is_active, sort, id)');

  // secret signs the deliveries (HMAC), so it is kept as is; the URL is checked by the guarded client.
  await knex.schema.createTable('webhooks', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('url', 2048).notNullable();
    t.string('email', 254);
    t.specificType('subscriptions', 'text[]').notNullable().defaultTo('{}');
    t.string('secret', 128).notNullable();
    t.integer('failure_count').notNullable().defaultTo(0);
    t.timestamp('disabled_at', { useTz: true });
    stamps(t);
  });
  await sql(
    "ALTER TABLE webhooks ADD CONSTRAINT webhooks_subscriptions_check CHECK (subscriptions <@ ARRAY['message:received', 'session:status:changed', 'person:changed']::text[])",
  );
  await sql('CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id, id)');

  // One row per event sent to a webhook; the delivery workflow (webhook:{deliveryId}) retries it.
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.integer('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.string('event', 60).notNullable();
    t.jsonb('payload').notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.smallint('last_status_code');
    t.text('last_error');
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    at(t, 'created_at');
  });
  await sql("ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'delivered', 'failed'))");
  await sql('CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC)');
  await sql('CREATE INDEX webhook_deliveries_workspace_created_idx ON webhook_deliveries (workspace_id, created_at)');
  await sql("CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'");

  // auth_secret is handed to the plugin iframe, so it is kept as is.
  await knex.schema.createTable('plugins', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('name', 120).notNullable();
    t.string('endpoint', 2048).notNullable();
    t.boolean('dev').notNullable().defaultTo(false);
    t.string('auth_secret', 128).notNullable();
    t.integer('sort').notNullable().defaultTo(0);
    stamps(t);
  });
  await sql('CREATE INDEX plugins_workspace_sort_idx ON plugins (workspace_id, sort, id)');

  // API credentials: secret is the public key id shown in settings; the token is shown once and kept only
  // as its SHA-256 (token_hint = its last characters, to recognise it).
  await knex.schema.createTable('api_secrets', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('secret', 64).notNullable();
    t.string('token_hash', 64).notNullable();
    t.string('token_hint', 12);
    t.integer('created_by').references('operators.id').onDelete('SET NULL');
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    at(t, 'created_at');
    t.unique(['secret'], { indexName: 'api_secrets_secret_unique' });
    t.unique(['token_hash'], { indexName: 'api_secrets_token_hash_unique' });
  });
  await sql('CREATE INDEX api_secrets_workspace_idx ON api_secrets (workspace_id, created_at)');

  await knex.schema.createTable('campaigns', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.integer('channel_id');
    t.string('name', 120).notNullable();
    t.jsonb('message').notNullable().defaultTo('[]');
    // Key of the uploaded numbers file (stored_files.key).
    t.string('file', 255);
    t.timestamp('execution_date', { useTz: true });
    t.integer('chunks').notNullable().defaultTo(100);
    t.integer('time_between_chunks').notNullable().defaultTo(1800);
    t.integer('initial_time_between_messages').notNullable().defaultTo(1);
    t.integer('final_time_between_messages').notNullable().defaultTo(5);
    t.string('status', 30).notNullable().defaultTo('waiting_file_processing');
    t.integer('total_numbers').notNullable().defaultTo(0);
    t.integer('total_numbers_executed').notNullable().defaultTo(0);
    t.integer('total_numbers_failed').notNullable().defaultTo(0);
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    stamps(t);
  });
  await sql(`ALTER TABLE campaigns ADD CONSTRAINT campaigns_status_check CHECK (status IN (
    'waiting_file_processing', 'waiting_processing', 'executing', 'paused', 'finished_success', 'finished_fail', 'canceled'))`);
  await sql(`ALTER TABLE campaigns ADD CONSTRAINT campaigns_timing_check CHECK (
    chunks >= 1 AND time_between_chunks >= 0 AND initial_time_between_messages >= 0
    AND final_time_between_messages >= initial_time_between_messages)`);
  await sql('ALTER TABLE campaigns ADD CONSTRAINT campaigns_totals_check CHECK (total_numbers >= 0 AND total_numbers_executed >= 0 AND total_numbers_failed >= 0)');
  // A deleted channel keeps its campaigns' history.
  await sql('ALTER TABLE campaigns ADD CONSTRAINT campaigns_channel_id_foreign FOREIGN KEY (workspace_id, channel_id) REFERENCES channels (workspace_id, id) ON DELETE SET NULL (channel_id)');
  await sql('CREATE INDEX campaigns_workspace_created_idx ON campaigns (workspace_id, created_at DESC, id DESC)');
  // How many campaigns run in parallel (plan limit) and which to resume.
  await sql('CREATE INDEX campaigns_workspace_status_idx ON campaigns (workspace_id, status)');

  // phone holds a phone with country and area code, or an Instagram username.
  await knex.schema.createTable('campaign_numbers', (t) => {
    t.bigIncrements('id');
    workspaceFk(t);
    t.integer('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.string('phone', 64).notNullable();
    t.string('name', 255);
    // Other columns of the uploaded row, for placeholders in the message.
    t.jsonb('variables').notNullable().defaultTo('{}');
    t.string('status', 20).notNullable().defaultTo('pending');
    t.timestamp('sent_at', { useTz: true });
    t.text('error');
    at(t, 'created_at');
    t.unique(['campaign_id', 'phone'], { indexName: 'campaign_numbers_campaign_phone_unique' });
  });
  await sql("ALTER TABLE campaign_numbers ADD CONSTRAINT campaign_numbers_status_check CHECK (status IN ('pending', 'sent', 'failed', 'skipped'))");
  // Next batch of pending numbers in upload order, and the per-status report.
  await sql('CREATE INDEX campaign_numbers_campaign_status_idx ON campaign_numbers (campaign_id, status, id)');
  await sql('CREATE INDEX campaign_numbers_workspace_idx ON campaign_numbers (workspace_id)');

  // Coupons are global: a percent off the monthly or annual price for a number of charges.
  await knex.schema.createTable('coupons', (t) => {
    t.increments('id');
    t.string('code', 40).notNullable();
    t.decimal('percent', 5, 2).notNullable();
    t.integer('charges').notNullable().defaultTo(1);
    t.string('billing', 10).notNullable().defaultTo('any');
    t.integer('max_redemptions');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('expires_at', { useTz: true });
    at(t, 'created_at');
  });
  await sql('CREATE UNIQUE INDEX coupons_code_unique ON coupons (lower(code))');
  await sql('ALTER TABLE coupons ADD CONSTRAINT coupons_percent_check CHECK (percent > 0 AND percent <= 100)');
  await sql('ALTER TABLE coupons ADD CONSTRAINT coupons_charges_check CHECK (charges >= 1)');
  await sql("ALTER TABLE coupons ADD CONSTRAINT coupons_billing_check CHECK (billing IN ('monthly', 'annual', 'any'))");

  // A coupon used by a workspace; charges_left counts down on every discounted invoice.
  await knex.schema.createTable('coupon_redemptions', (t) => {
    t.increments('id');
    t.integer('coupon_id').notNullable().references('coupons.id').onDelete('CASCADE');
    workspaceFk(t);
    t.integer('subscription_id').references('subscriptions.id').onDelete('SET NULL');
    t.integer('charges_left').notNullable();
    at(t, 'created_at');
    t.unique(['coupon_id', 'workspace_id'], { indexName: 'coupon_redemptions_coupon_workspace_unique' });
  });
  await sql('ALTER TABLE coupon_redemptions ADD CONSTRAINT coupon_redemptions_charges_left_check CHECK (charges_left >= 0)');
  await sql('CREATE INDEX coupon_redemptions_workspace_idx ON coupon_redemptions (workspace_id)');

  // SPEC's invoice: order_number is presented as `order`; total before credit and discount, amount to pay.
  await knex.schema.createTable('invoices', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.integer('subscription_id').references('subscriptions.id').onDelete('SET NULL');
    t.string('order_number', 40).notNullable();
    t.string('plan', 20).notNullable();
    t.smallint('months').notNullable().defaultTo(1);
    t.integer('agents').notNullable().defaultTo(0);
    t.integer('numbers').notNullable().defaultTo(0);
    t.integer('instagram_units').notNullable().defaultTo(0);
    t.integer('campaign_units').notNullable().defaultTo(0);
    t.decimal('total', 10, 2).notNullable();
    t.decimal('credit', 10, 2).notNullable().defaultTo(0);
    t.decimal('discount', 10, 2).notNullable().defaultTo(0);
    t.decimal('amount', 10, 2).notNullable();
    t.integer('coupon_id').references('coupons.id').onDelete('SET NULL');
    t.string('status', 20).notNullable().defaultTo('pending');
    t.string('payment_method', 10);
    t.timestamp('due_at', { useTz: true });
    t.timestamp('paid_at', { useTz: true });
    // End of the period this invoice pays for.
    t.timestamp('expires_at', { useTz: true }).notNullable();
    stamps(t);
    t.unique(['order_number'], { indexName: 'invoices_order_number_unique' });
  });
  await sql("ALTER TABLE invoices ADD CONSTRAINT invoices_plan_check CHECK (plan IN ('basic', 'trial', 'business', 'enterprise', 'pro'))");
  await sql("ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('pending', 'paid', 'canceled', 'expired'))");
  await sql("ALTER TABLE invoices ADD CONSTRAINT invoices_payment_method_check CHECK (payment_method IN ('pix', 'boleto'))");
  await sql('ALTER TABLE invoices ADD CONSTRAINT invoices_months_check CHECK (months IN (1, 12))');
  await sql('ALTER TABLE invoices ADD CONSTRAINT invoices_amounts_check CHECK (total >= 0 AND credit >= 0 AND discount >= 0 AND amount >= 0)');
  await sql('CREATE INDEX invoices_workspace_created_idx ON invoices (workspace_id, created_at DESC, id DESC)');
  await sql('CREATE INDEX invoices_subscription_idx ON invoices (subscription_id)');

  // Payment attempts of an invoice; provider_reference is the payment provider's id (webhook idempotency).
  await knex.schema.createTable('invoice_transactions', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.integer('invoice_id').notNullable().references('invoices.id').onDelete('CASCADE');
    t.string('status', 20).notNullable().defaultTo('pending');
    t.string('method', 10).notNullable();
    t.decimal('amount', 10, 2).notNullable();
    t.string('card_last_digits', 4);
    t.string('provider_reference', 120);
    // Pix copy-and-paste code and QR, boleto line and URL.
    t.jsonb('payment_data').notNullable().defaultTo('{}');
    t.timestamp('paid_at', { useTz: true });
    stamps(t);
  });
  await sql("ALTER TABLE invoice_transactions ADD CONSTRAINT invoice_transactions_status_check CHECK (status IN ('pending', 'paid', 'failed', 'canceled', 'refunded'))");
  await sql("ALTER TABLE invoice_transactions ADD CONSTRAINT invoice_transactions_method_check CHECK (method IN ('pix', 'boleto', 'card'))");
  await sql('ALTER TABLE invoice_transactions ADD CONSTRAINT invoice_transactions_amount_check CHECK (amount >= 0)');
  await sql('CREATE UNIQUE INDEX invoice_transactions_provider_reference_unique ON invoice_transactions (provider_reference) WHERE provider_reference IS NOT NULL');
  await sql('CREATE INDEX invoice_transactions_invoice_idx ON invoice_transactions (invoice_id, created_at)');
  await sql('CREATE INDEX invoice_transactions_workspace_idx ON invoice_transactions (workspace_id)');

  // Contracts (leftover product): cpf as 11 digits, code is the contract type, stamp the document hash.
  await knex.schema.createTable('contracts', (t) => {
    t.increments('id');
    workspaceFk(t);
    t.string('name', 255).notNullable();
    t.string('loan_number', 60);
    t.string('cpf', 11);
    t.string('code', 60).notNullable();
    t.jsonb('json');
    t.string('status', 20).notNullable().defaultTo('created');
    t.string('stamp', 128);
    t.string('path', 500);
    t.timestamp('formalized_at', { useTz: true });
    t.integer('operator_id').references('operators.id').onDelete('SET NULL');
    stamps(t);
  });
  await sql("ALTER TABLE contracts ADD CONSTRAINT contracts_status_check CHECK (status IN ('created', 'processed', 'formalized', 'rejected', 'failed', 'overwritten'))");
  await sql("ALTER TABLE contracts ADD CONSTRAINT contracts_cpf_check CHECK (cpf ~ '^[0-9]{11}$')");
  // Tabs (Pendentes = processed, Concluídos = formalized) with a period filter, newest first.
  await sql('CREATE INDEX contracts_workspace_status_idx ON contracts (workspace_id, status, created_at DESC)');
  await sql('CREATE INDEX contracts_workspace_created_idx ON contracts (workspace_id, created_at DESC, id DESC)');
  // A new import with the same contract number overwrites the older one.
  await sql('CREATE INDEX contracts_workspace_loan_number_idx ON contracts (workspace_id, loan_number) WHERE loan_number IS NOT NULL');

  // The power-up catalog (the /power-ups cards). What a workspace turned on stays in workspaces.power_ups.
  await knex.schema.createTable('power_ups', (t) => {
    t.string('code', 30).primary();
    t.string('name', 60).notNullable();
    t.string('description', 255);
    t.boolean('is_enabled').notNullable().defaultTo(true);
    t.integer('sort').notNullable().defaultTo(0);
  });
  await knex('power_ups').insert([
    { code: 'facebook', name: 'Facebook', is_enabled: true, sort: 1 },
    { code: 'whatsapp', name: 'WhatsApp', is_enabled: true, sort: 2 },
    { code: 'bot', name: 'Bot', is_enabled: true, sort: 3 },
    { code: 'telegram', name: 'Telegram', is_enabled: false, sort: 4 },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'power_ups',
    'contracts',
    'invoice_transactions',
    'invoices',
    'coupon_redemptions',
    'coupons',
    'campaign_numbers',
    'campaigns',
    'api_secrets',
    'plugins',
    'webhook_deliveries',
    'webhooks',
    'assignment_rules',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
