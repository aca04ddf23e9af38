import type { Knex } from 'knex';

/**
 * The payment providers (issue 29, docs/billing-providers.md):
 * - `payment_events`: every provider notification billing applied, once: unique per provider and event id
 *   (Asaas delivers "at least once" and repeats an event until it gets a 200). Written in the transaction that
 *   applies the event (api/billing/webhookEvents.ts), so a repeated delivery finds it and changes nothing. Not
 *   tenant-owned: an event names the provider's payment, which may be no invoice of ours.
 * - `test_mode_charges`: the charges of the embedded test mode (api/billing/providers/testMode.ts), its
 *   stand-in for the provider's own records; amounts in centavos.
 * - invoice and transaction states the provider reports: a transaction becomes `overdue` (its due date passed
 *   unpaid), an invoice `overdue` or `refunded`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_events', (t) => {
    t.bigIncrements('id');
    t.string('provider', 10).notNullable();
    t.string('event_id', 200).notNullable();
    // The provider's event (Asaas `PAYMENT_RECEIVED`, the test mode's `PAYMENT_SIMULATED`).
    t.string('event', 60).notNullable();
    t.string('provider_reference', 120).notNullable();
    t.string('status', 20).notNullable();
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'event_id'], { indexName: 'payment_events_provider_event_id_unique' });
  });
  await knex.raw("ALTER TABLE payment_events ADD CONSTRAINT payment_events_provider_check CHECK (provider IN ('asaas', 'test'))");
  await knex.raw("ALTER TABLE payment_events ADD CONSTRAINT payment_events_status_check CHECK (status IN ('pending', 'paid', 'overdue', 'refunded', 'deleted'))");
  await knex.raw('CREATE INDEX payment_events_reference_idx ON payment_events (provider_reference, created_at)');

  await knex.schema.createTable('test_mode_charges', (t) => {
    t.increments('id');
    t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('provider_reference', 40).notNullable();
    t.string('customer_reference', 40).notNullable();
    t.string('order_number', 40).notNullable();
    t.string('method', 10).notNullable();
    t.integer('amount').notNullable();
    t.date('due_date').notNullable();
    t.string('description', 500).notNullable().defaultTo('');
    t.string('status', 20).notNullable().defaultTo('pending');
    // What the charge showed: the BR Code, or the boleto's line and barcode.
    t.jsonb('payment').notNullable().defaultTo('{}');
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider_reference'], { indexName: 'test_mode_charges_provider_reference_unique' });
  });
  await knex.raw("ALTER TABLE test_mode_charges ADD CONSTRAINT test_mode_charges_method_check CHECK (method IN ('pix', 'boleto'))");
  await knex.raw("ALTER TABLE test_mode_charges ADD CONSTRAINT test_mode_charges_status_check CHECK (status IN ('pending', 'paid', 'refunded', 'deleted'))");
  await knex.raw('ALTER TABLE test_mode_charges ADD CONSTRAINT test_mode_charges_amount_check CHECK (amount > 0)');
  // A retried createCharge finds the pending charge of the same order, method, amount and due date.
  await knex.raw('CREATE INDEX test_mode_charges_workspace_order_idx ON test_mode_charges (workspace_id, order_number, created_at)');

  await knex.raw('ALTER TABLE invoice_transactions DROP CONSTRAINT invoice_transactions_status_check');
  await knex.raw("ALTER TABLE invoice_transactions ADD CONSTRAINT invoice_transactions_status_check CHECK (status IN ('pending', 'paid', 'overdue', 'failed', 'canceled', 'refunded'))");
  await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_status_check');
  await knex.raw("ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('pending', 'paid', 'overdue', 'canceled', 'expired', 'refunded'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex('invoices').where({ status: 'overdue' }).update({ status: 'pending' });
  await knex('invoices').where({ status: 'refunded' }).update({ status: 'canceled' });
  await knex('invoice_transactions').where({ status: 'overdue' }).update({ status: 'pending' });
  await knex.raw('ALTER TABLE invoices DROP CONSTRAINT invoices_status_check');
  await knex.raw("ALTER TABLE invoices ADD CONSTRAINT invoices_status_check CHECK (status IN ('pending', 'paid', 'canceled', 'expired'))");
  await knex.raw('ALTER TABLE invoice_transactions DROP CONSTRAINT invoice_transactions_status_check');
  await knex.raw("ALTER TABLE invoice_transactions ADD CONSTRAINT invoice_transactions_status_check CHECK (status IN ('pending', 'paid', 'failed', 'canceled', 'refunded'))");
  await knex.schema.dropTableIfExists('test_mode_charges');
  await knex.schema.dropTableIfExists('payment_events');
}
