import type { Knex } from 'knex';

/**
 * Subscriptions paid by Pix and Boleto and renewed by the `subscription:{id}` workflow (issue 29,
 * docs/billing.md "Subscription lifecycle"):
 * - subscriptions: `period_start` and `paid_amount` (the paid window the credit of unused time is taken from),
 *   `billing_day` (renewal on the same day of the month), `grace_ends_at` (an unpaid renewal keeps the plan
 *   until then), `canceled_at` (canceled, in force until `expires_at`), `scheduled_change` (a downgrade applied
 *   at the period end), `reminders_sent` (which e-mail reminders went out, so a retried activity sends none twice).
 * - invoices: `kind` (new, upgrade or renewal), `period_start`, the quote's `items`, the payer as charged
 *   (`payer_name`, `payer_document`, `payer_email`, `provider_customer_id`), `applied_at` (when the paid invoice
 *   changed the subscription) and the status `failed` (the provider refused or could not create the charge).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.timestamp('period_start', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('paid_amount').notNullable().defaultTo(0);
    t.smallint('billing_day');
    t.timestamp('grace_ends_at', { useTz: true });
    t.timestamp('canceled_at', { useTz: true });
    t.jsonb('scheduled_change');
    t.specificType('reminders_sent', 'text[]').notNullable().defaultTo('{}');
  });
  await knex.raw('UPDATE subscriptions SET period_start = created_at');
  await knex.raw('ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_billing_day_check CHECK (billing_day BETWEEN 1 AND 31)');
  await knex.raw('ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_paid_amount_check CHECK (paid_amount >= 0)');

  await knex.schema.alterTable('invoices', (t) => {
    t.string('kind', 10).notNullable().defaultTo('new');
    t.timestamp('period_start', { useTz: true });
    t.jsonb('items').notNullable().defaultTo('[]');
    t.string('payer_name', 120);
    t.string('payer_document', 14);
    t.string('payer_email', 254);
    t.string('provider_customer_id', 120);
    t.timestamp('applied_at', { useTz: true });
  });
  await knex.raw("ALTER TABLE invoices ADD CONSTRAINT invoices_kind_check CHECK (kind IN ('new', 'upgrade', 'renewal'))");
  await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_status_check');
  await knex.raw("ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('pending', 'paid', 'overdue', 'canceled', 'expired', 'refunded', 'failed'))");
  // The workflow's "what is open or paid and not applied yet" of one subscription.
  await knex.raw('CREATE INDEX invoices_subscription_status_idx ON invoices (subscription_id, status) WHERE subscription_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS invoices_subscription_status_idx');
  await knex('invoices').where({ status: 'failed' }).update({ status: 'canceled' });
  await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_status_check');
  await knex.raw("ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('pending', 'paid', 'overdue', 'canceled', 'expired', 'refunded'))");
  await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_kind_check');
  await knex.schema.alterTable('invoices', (t) => {
    for (const c of ['kind', 'period_start', 'items', 'payer_name', 'payer_document', 'payer_email', 'provider_customer_id', 'applied_at']) t.dropColumn(c);
  });
  await knex.raw('ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_paid_amount_check');
  await knex.raw('ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_billing_day_check');
  await knex.schema.alterTable('subscriptions', (t) => {
    for (const c of ['period_start', 'paid_amount', 'billing_day', 'grace_ends_at', 'canceled_at', 'scheduled_change', 'reminders_sent']) t.dropColumn(c);
  });
}
