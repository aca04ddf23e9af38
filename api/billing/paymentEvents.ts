import type { AppDeps } from '../deps';
import type { InvoiceStatus } from '../models/Invoice';
import type { TransactionStatus } from '../models/InvoiceTransaction';
import type { ChargeStatus, PaymentEvent } from './provider';

/**
 * The one place billing learns what happened to a payment (issue 29): every provider notification — the Asaas
 * webhook (webhook.ts) and the test mode's 'Simular pagamento' (providers/testMode.ts) — arrives here once per
 * event id (webhookEvents.ts deduplicates), inside the transaction that records it, with `deps.knex` bound to
 * that transaction. For now it moves the invoice transaction named by `providerReference` and its invoice to
 * paid / overdue / refunded / canceled; applying the same news twice changes nothing (events may also arrive
 * out of order: a late PAYMENT_OVERDUE never unpays a paid charge). Anything that leaves the database from
 * here (a workflow signal) must tolerate a rollback that replays the event.
 */
export type PaymentEventDeps = Pick<AppDeps, 'knex' | 'logger'> & Partial<Pick<AppDeps, 'config' | 'publisher' | 'temporal'>>;

export interface PaymentEventOutcome {
  /** False when no invoice transaction has this provider reference (a payment of the account that is not ours). */
  known: boolean;
  workspaceId?: number;
  invoiceId?: number;
  transactionId?: number;
  transaction?: { before: TransactionStatus; after: TransactionStatus };
  invoice?: { before: InvoiceStatus; after: InvoiceStatus };
}

/** A transaction's status once the provider reports `reported` (unchanged when the news is stale or repeated). */
export function transactionStatusAfter(current: TransactionStatus, reported: ChargeStatus): TransactionStatus {
  switch (reported) {
    case 'paid':
      return current === 'refunded' ? current : 'paid';
    case 'overdue':
      return current === 'pending' ? 'overdue' : current;
    case 'refunded':
      return 'refunded';
    case 'deleted':
      return current === 'pending' || current === 'overdue' || current === 'failed' ? 'canceled' : current;
    default:
      return current;
  }
}

/**
 * The invoice's status after one of its transactions moved `before` → `after`. `othersOpen`: another transaction
 * of the invoice is still pending, overdue or paid (the payer switched from Pix to Boleto): then neither the old
 * charge's cancellation nor its due date closes the invoice.
 */
export function invoiceStatusAfter(current: InvoiceStatus, before: TransactionStatus, after: TransactionStatus, othersOpen: boolean): InvoiceStatus {
  if (before === after) return current;
  if (after === 'paid') return 'paid';
  if (after === 'refunded') return before === 'paid' && current === 'paid' ? 'refunded' : current;
  const open = current === 'pending' || current === 'overdue';
  if (after === 'overdue') return current === 'pending' && !othersOpen ? 'overdue' : current;
  if (after === 'canceled') return open && !othersOpen ? 'canceled' : current;
  return current;
}

export async function onPaymentEvent(deps: PaymentEventDeps, event: PaymentEvent): Promise<PaymentEventOutcome> {
  const { knex } = deps;
  const tx: { id: number; workspaceId: number; invoiceId: number; status: TransactionStatus; method: string; paidAt: Date | null } | undefined = await knex('invoice_transactions')
    .where({ providerReference: event.providerReference })
    .forUpdate()
    .first('id', 'workspaceId', 'invoiceId', 'status', 'method', 'paidAt');
  if (!tx) {
    deps.logger.warn({ providerReference: event.providerReference, eventId: event.eventId }, 'payment event for no invoice transaction of ours');
    return { known: false };
  }
  const paidAt = event.paidAt ? new Date(event.paidAt) : new Date();
  const after = transactionStatusAfter(tx.status, event.status);
  if (after !== tx.status) {
    await knex('invoice_transactions')
      .where({ id: tx.id, workspaceId: tx.workspaceId })
      .update({ status: after, paidAt: after === 'paid' ? paidAt : tx.paidAt, updatedAt: knex.fn.now() });
  }
  const invoice: { id: number; status: InvoiceStatus } = await knex('invoices').where({ id: tx.invoiceId, workspaceId: tx.workspaceId }).forUpdate().first('id', 'status');
  const others = await knex('invoice_transactions')
    .where({ invoiceId: tx.invoiceId, workspaceId: tx.workspaceId })
    .whereNot({ id: tx.id })
    .whereIn('status', ['pending', 'overdue', 'paid'])
    .first('id');
  const invoiceAfter = invoiceStatusAfter(invoice.status, tx.status, after, Boolean(others));
  if (invoiceAfter !== invoice.status) {
    const paid = invoiceAfter === 'paid' ? { paidAt, ...(tx.method === 'pix' || tx.method === 'boleto' ? { paymentMethod: tx.method } : {}) } : {};
    await knex('invoices')
      .where({ id: invoice.id, workspaceId: tx.workspaceId })
      .update({ status: invoiceAfter, ...paid, updatedAt: knex.fn.now() });
  }
  return {
    known: true,
    workspaceId: tx.workspaceId,
    invoiceId: invoice.id,
    transactionId: tx.id,
    transaction: { before: tx.status, after },
    invoice: { before: invoice.status, after: invoiceAfter },
  };
}
