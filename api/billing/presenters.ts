import type { Quote } from './pricing';
import type { InvoiceRow, SubscriptionRow, TransactionRow } from './queries';
import { mainTransaction } from './queries';

/** The JSON of the billing calls (docs/billing-api.md). Money in centavos, times ISO. */

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function presentSubscription(s: SubscriptionRow) {
  return {
    id: s.id,
    license: s.license,
    status: s.status,
    trial: s.license === 'trial',
    agents: s.agents,
    whatsapp: s.numbers,
    instagram: s.instagramUnits,
    campaign: s.campaignUnits,
    months: s.months,
    total: s.total,
    autorenewal: s.autorenewal,
    periodStart: iso(s.periodStart),
    expiresAt: iso(s.expiresAt),
    canceledAt: iso(s.canceledAt),
    graceEndsAt: iso(s.graceEndsAt),
    scheduledChange: s.scheduledChange,
  };
}
export type SubscriptionView = ReturnType<typeof presentSubscription>;

/** POST /payment/quote: the quote's lines as the page shows them (`label`), and its totals. */
export function presentQuote(q: Quote) {
  return {
    license: q.license,
    months: q.months,
    kind: q.kind,
    effective: q.effective,
    items: q.items.map((i) => ({ kind: i.kind, label: i.description, quantity: i.quantity, unitPrice: i.unitPrice, amount: i.amount })),
    subtotal: q.subtotal,
    discount: q.discount,
    credit: q.credit,
    total: q.total,
    periodPrice: q.periodPrice,
  };
}

/** What the page shows while a field is refused: nothing priced, every refusal by field. */
export function presentRefusedQuote(fields: { key: string; descriptions: string[] }[]) {
  return {
    items: [],
    subtotal: 0,
    discount: 0,
    credit: 0,
    total: 0,
    effective: 'now' as const,
    errors: Object.fromEntries(fields.map((f) => [f.key, f.descriptions[0]])),
  };
}

export function presentInvoice(invoice: InvoiceRow, transactions: TransactionRow[]) {
  return {
    id: invoice.id,
    order: invoice.orderNumber,
    kind: invoice.kind,
    status: invoice.status,
    plan: invoice.plan,
    months: invoice.months,
    agents: invoice.agents,
    whatsapp: invoice.numbers,
    instagram: invoice.instagramUnits,
    campaign: invoice.campaignUnits,
    amount: invoice.amount,
    total: invoice.total,
    credit: invoice.credit,
    discount: invoice.discount,
    paymentMethod: invoice.paymentMethod,
    paidAt: iso(invoice.paidAt),
    dueAt: iso(invoice.dueAt),
    expiresAt: iso(invoice.expiresAt),
    createdAt: iso(invoice.createdAt),
    transactionId: mainTransaction(transactions)?.id ?? null,
  };
}

export function presentTransaction(t: TransactionRow) {
  return {
    id: t.id,
    method: t.method,
    status: t.status,
    amount: t.amount,
    paidAt: iso(t.paidAt),
    createdAt: iso(t.createdAt),
    // A charge the provider has not made (or refused) has no payment data yet.
    payment: 'method' in t.paymentData ? t.paymentData : null,
  };
}
