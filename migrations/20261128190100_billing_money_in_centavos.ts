import type { Knex } from 'knex';

/**
 * Money in integer centavos end to end (issue 29, docs/billing.md): the subscription's total, the invoice's
 * total, credit, discount and amount, and a transaction's amount were decimal reais; they become bigint
 * centavos, converted in place (R$ 449,00 → 44900). The provider seam (api/billing/provider.ts), quote()
 * and the test mode's charges already count in centavos.
 */
const COLUMNS: Record<string, string[]> = {
  subscriptions: ['total'],
  invoices: ['total', 'credit', 'discount', 'amount'],
  invoice_transactions: ['amount'],
};

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const alter = columns.map((c) => `ALTER COLUMN ${c} TYPE bigint USING round(${c} * 100)::bigint`).join(', ');
    await knex.raw(`ALTER TABLE ${table} ${alter}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const alter = columns.map((c) => `ALTER COLUMN ${c} TYPE numeric(10, 2) USING (${c}::numeric / 100)`).join(', ');
    await knex.raw(`ALTER TABLE ${table} ${alter}`);
  }
}
