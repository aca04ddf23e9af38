import type { Knex } from 'knex';
import { PLANS } from './plans';
import type { Charge, PaymentProvider } from './provider';
import type { PaymentProviderDeps } from './providers';
import { PaymentProviderError } from './providers/errors';
import { calendarDay } from './proration';
import { OPEN_INVOICE_STATUSES, OPEN_TRANSACTION_STATUSES, type InvoiceRow } from './queries';

/**
 * Charging an invoice at the provider, and taking charges back (docs/billing.md "Subscribing"). The invoice and
 * its transaction are committed first; the provider call comes after, idempotent by the invoice's order number
 * (both providers answer a repeated call with the charge they already made); its answer is written to the
 * transaction, or — when the provider refuses or cannot be reached — the transaction and the invoice are
 * marked `failed` and the coupon the invoice used is given back, so nothing is left half-written.
 */

const DAY_MS = 86_400_000;

/** How long a new order may wait for its payment: a Pix code until the end of tomorrow, a boleto three days. */
export const ORDER_DUE_DAYS = { pix: 1, boleto: 3 } as const;

export function orderDueAt(method: 'pix' | 'boleto', now: Date): Date {
  return new Date(Date.parse(`${calendarDay(new Date(now.getTime() + ORDER_DUE_DAYS[method] * DAY_MS))}T23:59:59-03:00`));
}

export function chargeDescription(invoice: Pick<InvoiceRow, 'plan' | 'months' | 'orderNumber' | 'kind'>): string {
  const plan = PLANS[invoice.plan as keyof typeof PLANS]?.name ?? invoice.plan;
  const what = invoice.kind === 'upgrade' ? 'mudança para o plano' : invoice.kind === 'renewal' ? 'renovação do plano' : 'plano';
  return `Balcão: ${what} ${plan} (${invoice.months === 12 ? 'anual' : 'mensal'}), pedido ${invoice.orderNumber}`;
}

/**
 * Creates (or finds again) the charge of one transaction and records it. Throws the provider's pt-BR error after
 * marking the transaction and the invoice failed — unless `keepOnTransient` and the provider was only out of
 * reach (the renewal's activity retries the same invoice then).
 */
export async function chargeTransaction(
  deps: Pick<PaymentProviderDeps, 'knex' | 'logger'>,
  provider: PaymentProvider,
  invoice: InvoiceRow,
  transactionId: number,
  now = new Date(),
  options: { keepOnTransient?: boolean } = {},
): Promise<Charge> {
  const { knex } = deps;
  const tx: { id: number; method: 'pix' | 'boleto'; amount: number } = await knex('invoiceTransactions').where({ id: transactionId, workspaceId: invoice.workspaceId }).first('id', 'method', 'amount');
  const due = invoice.dueAt && invoice.dueAt.getTime() > now.getTime() ? invoice.dueAt : now;
  try {
    const charge = await provider.createCharge({
      orderNumber: invoice.orderNumber,
      amount: tx.amount,
      method: tx.method,
      dueDate: calendarDay(due),
      description: chargeDescription(invoice),
      payer: { workspaceId: invoice.workspaceId, name: invoice.payerName ?? '', email: invoice.payerEmail ?? '', document: invoice.payerDocument ?? '' },
      providerCustomerId: invoice.providerCustomerId,
    });
    await knex.transaction(async (trx) => {
      await trx('invoiceTransactions')
        .where({ id: tx.id, workspaceId: invoice.workspaceId })
        .update({ providerReference: charge.providerReference, paymentData: JSON.stringify(charge.payment), updatedAt: trx.fn.now() });
      await trx('invoices').where({ id: invoice.id, workspaceId: invoice.workspaceId }).update({ providerCustomerId: charge.providerCustomerId, updatedAt: trx.fn.now() });
    });
    return charge;
  } catch (err) {
    if (options.keepOnTransient && err instanceof PaymentProviderError && err.transient) throw err;
    deps.logger.warn({ err, invoiceId: invoice.id, orderNumber: invoice.orderNumber }, 'charge not created: invoice marked failed');
    await knex.transaction(async (trx) => {
      await trx('invoiceTransactions').where({ id: tx.id, workspaceId: invoice.workspaceId }).whereIn('status', [...OPEN_TRANSACTION_STATUSES]).update({ status: 'failed', updatedAt: trx.fn.now() });
      const failed = await trx('invoices')
        .where({ id: invoice.id, workspaceId: invoice.workspaceId })
        .whereIn('status', [...OPEN_INVOICE_STATUSES])
        .update({ status: 'failed', updatedAt: trx.fn.now() });
      if (failed) await releaseCoupon(trx, invoice);
    });
    throw err;
  }
}

/**
 * The coupon charge an invoice that will never be paid took: a renewal gives its charge back; an order gives
 * the redemption back, unless a paid invoice of the workspace already used that coupon.
 */
export async function releaseCoupon(trx: Knex.Transaction, invoice: Pick<InvoiceRow, 'id' | 'workspaceId' | 'couponId' | 'kind'>): Promise<void> {
  if (!invoice.couponId) return;
  const where = { couponId: invoice.couponId, workspaceId: invoice.workspaceId };
  if (invoice.kind === 'renewal') {
    await trx('couponRedemptions').where(where).increment('chargesLeft', 1);
    return;
  }
  const paid = await trx('invoices').where(where).where('status', 'paid').whereNot({ id: invoice.id }).first('id');
  if (!paid) await trx('couponRedemptions').where(where).del();
}

/**
 * Cancels the open invoices `scope` selects (superseded orders, the renewal of a canceled plan) with their open
 * transactions, giving their coupons back. Answers the provider references to cancel after commit.
 */
export async function cancelOpenInvoices(trx: Knex.Transaction, workspaceId: number, scope: (q: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<string[]> {
  const q = scope(trx('invoices').where({ workspaceId }).whereIn('status', [...OPEN_INVOICE_STATUSES]).forUpdate());
  const invoices = (await q.select('id', 'workspaceId', 'couponId', 'kind')) as Pick<InvoiceRow, 'id' | 'workspaceId' | 'couponId' | 'kind'>[];
  if (!invoices.length) return [];
  const ids = invoices.map((i) => i.id);
  await trx('invoices').where({ workspaceId }).whereIn('id', ids).update({ status: 'canceled', updatedAt: trx.fn.now() });
  const refs: { providerReference: string | null }[] = await trx('invoiceTransactions')
    .where({ workspaceId })
    .whereIn('invoiceId', ids)
    .whereIn('status', [...OPEN_TRANSACTION_STATUSES])
    .update({ status: 'canceled', updatedAt: trx.fn.now() })
    .returning('providerReference');
  for (const invoice of invoices) await releaseCoupon(trx, invoice);
  return refs.map((r) => r.providerReference).filter((r): r is string => Boolean(r));
}

/** Takes canceled charges back at the provider; a failure is logged (the charge expires unpaid at its due date anyway). */
export async function cancelCharges(deps: Pick<PaymentProviderDeps, 'logger'>, provider: PaymentProvider, references: string[]): Promise<void> {
  for (const reference of references) {
    await provider.cancelCharge(reference).catch((err: unknown) => deps.logger.warn({ err, providerReference: reference }, 'charge not canceled at the provider'));
  }
}

/** Our order numbers: `B` + the day + random, unique (invoices_order_number_unique); renewals are `R{subscription}-{period end}-{n}`. */
export function newOrderNumber(now: Date, random: string): string {
  return `B${calendarDay(now).replace(/-/g, '')}${random.toUpperCase()}`;
}
