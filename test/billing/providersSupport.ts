import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { ChargeRequest, PaymentMethod } from '../../api/billing/provider';
import { TestModeProvider } from '../../api/billing/providers/testMode';
import { createLogger } from '../../api/logger';
import { testDatabase } from '../helpers/db';
import { makeWorkspace } from '../helpers/factories';

/** A YYYY-MM-DD `days` after today in Brasília. */
export function dayFromToday(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A charge request for `workspaceId`: R$ 449,00 by Pix due in 3 days unless told otherwise. */
export function chargeRequest(workspaceId: number, overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    orderNumber: `T${randomBytes(5).toString('hex').toUpperCase()}`,
    amount: 44_900,
    method: 'pix',
    dueDate: dayFromToday(3),
    description: 'Balcão Business — 1 mês',
    payer: { workspaceId, name: 'Empresa Teste Ltda', email: 'financeiro@exemplo.com.br', document: '11444777000161' },
    ...overrides,
  };
}

/** An invoice of `workspaceId` with one pending transaction at the provider's `providerReference`. */
export async function makeInvoiceWithTransaction(knex: Knex, workspaceId: number, providerReference: string, method: PaymentMethod = 'pix') {
  const [invoice] = await knex('invoices')
    .insert({ workspaceId, orderNumber: `T${randomBytes(6).toString('hex')}`, plan: 'business', total: 44_900, amount: 44_900, expiresAt: new Date(Date.now() + 30 * 86_400_000) })
    .returning(['id']);
  const [transaction] = await knex('invoice_transactions').insert({ workspaceId, invoiceId: invoice.id, method, amount: 44_900, providerReference }).returning(['id']);
  return { invoiceId: invoice.id as number, transactionId: transaction.id as number };
}

export async function statusesOf(knex: Knex, ids: { invoiceId: number; transactionId: number }) {
  const invoice = await knex('invoices').where({ id: ids.invoiceId }).first('status', 'paidAt', 'paymentMethod');
  const transaction = await knex('invoice_transactions').where({ id: ids.transactionId }).first('status', 'paidAt');
  return { invoice: invoice.status as string, transaction: transaction.status as string, invoicePaidAt: invoice.paidAt as Date | null, paymentMethod: invoice.paymentMethod as string | null };
}

/** The test mode over the run's database, with a workspace of its own. */
export async function testModeFixture(): Promise<{ knex: Knex; provider: TestModeProvider; workspaceId: number }> {
  const { knex } = await testDatabase();
  return { knex, provider: new TestModeProvider({ knex, logger: createLogger('silent') }), workspaceId: (await makeWorkspace(knex)).id };
}
