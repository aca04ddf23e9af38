import type { PaymentEvent } from './provider';
import type { PaymentEventDeps } from './paymentEvents';
import type { AcceptedPaymentEvent } from './webhookEvents';
import { publishInvoicePaid, wakeLifecycle } from './events';

/**
 * After a payment notification committed (webhookEvents.ts acceptPaymentEvent: the Asaas webhook, its sweep, a
 * simulation, the lifecycle asking the provider): a transaction that became paid is announced on the
 * workspace's topic (`invoice.paid`, the payment page turns paid), and the subscription's lifecycle is woken to
 * apply the paid invoice (extend the period, apply the upgrade). The wake-up is repeated for a duplicate
 * delivery while the invoice is paid and not applied yet, so a redelivery (or the hook sweep) makes up for a
 * signal that Temporal did not take. Throws when Temporal cannot be reached: the hook stays unprocessed and is
 * retried; the lifecycle also asks for paid invoices at every step.
 */
export async function afterPaymentEvent(deps: PaymentEventDeps, event: PaymentEvent, accepted: AcceptedPaymentEvent): Promise<void> {
  const row: { transactionId: number; invoiceId: number; workspaceId: number; invoiceStatus: string; subscriptionId: number | null; appliedAt: Date | null } | undefined = await deps
    .knex('invoiceTransactions as t')
    .join('invoices as i', function () {
      this.on('i.id', 't.invoiceId').andOn('i.workspaceId', 't.workspaceId');
    })
    .where('t.providerReference', event.providerReference)
    .first('t.id as transactionId', 'i.id as invoiceId', 'i.workspaceId', 'i.status as invoiceStatus', 'i.subscriptionId', 'i.appliedAt');
  if (!row) return;
  const outcome = accepted.duplicate ? undefined : accepted.outcome;
  if (deps.publisher && outcome?.transaction && outcome.transaction.after === 'paid' && outcome.transaction.before !== 'paid') {
    await publishInvoicePaid(deps.publisher, row.workspaceId, { invoiceId: row.invoiceId, transactionId: row.transactionId });
  }
  if (deps.temporal && row.subscriptionId && row.invoiceStatus === 'paid' && !row.appliedAt) {
    await wakeLifecycle({ knex: deps.knex, temporal: deps.temporal }, row.subscriptionId, { paid: { invoiceId: row.invoiceId } });
  }
}
