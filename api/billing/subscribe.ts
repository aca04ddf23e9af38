import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { AppError, errors, type FieldError } from '../http/errors';
import type { Actor } from '../policy/policy';
import { addPeriod, endOf } from '../../workflows/subscription/periods';
import { cancelCharges, cancelOpenInvoices, chargeTransaction, newOrderNumber, orderDueAt } from './charge';
import { redeemCoupon } from './coupons';
import { DOCUMENT_MESSAGES } from './document';
import { publishSubscriptionUpdated, wakeLifecycle, wakeLifecycleLater } from './events';
import { loadUsage } from './limits';
import { quote, validateQuote, type CurrentSubscription, type QuoteInput } from './pricing';
import { paymentProvider } from './providers';
import { findSubscription, lastPayer, workspaceSubscription, type InvoiceRow, type ScheduledChange, type SubscriptionRow } from './queries';
import type { SubscribeReq } from './schema';

/**
 * Subscribing and changing plan (docs/billing.md "Subscribing", docs/billing-api.md): one transaction prices the
 * order with quote() against the plan in force, the usage and the coupon (redeemed here), cancels an unpaid order
 * it replaces and writes the invoice and its transaction; after the commit the provider charges it (idempotent by
 * the order number; a refusal marks the invoice failed). A downgrade writes no invoice: it is scheduled for the
 * period end. The paid invoice changes the subscription later, in its lifecycle workflow.
 */

export const SUBSCRIBE_MESSAGES = {
  alreadySubscribed: 'Este workspace já tem uma assinatura ativa: para mudar o plano, use "Mudar plano".',
  replaced: 'Esta assinatura não é mais a atual do workspace: recarregue a página.',
  notFound: 'Assinatura não encontrada.',
} as const;

export interface OrderResult {
  invoiceId: number | null;
  transactionId: number | null;
  effective: 'now' | 'period_end';
  scheduledChange?: ScheduledChange;
}

type Placed =
  | { kind: 'invoice'; invoice: InvoiceRow; transactionId: number; subscriptionId: number; superseded: string[] }
  | { kind: 'scheduled'; subscription: SubscriptionRow; change: ScheduledChange; superseded: string[] };

/** A paid plan that still works (a trial is not paid; its grace counts). */
export function paidInForce(s: SubscriptionRow, now: Date): boolean {
  const end = endOf({ expiresAt: new Date(s.expiresAt).toISOString(), graceEndsAt: s.graceEndsAt ? new Date(s.graceEndsAt).toISOString() : null });
  return s.license !== 'trial' && s.status === 'active' && end > now.getTime();
}

/** The plan in force as quote() reads it: what was paid for the current paid window (0 for a trial). */
export function currentOf(s: SubscriptionRow): CurrentSubscription {
  return {
    subscription: { license: s.license, agents: s.agents, numbers: s.numbers, instagramUnits: s.instagramUnits, campaignUnits: s.campaignUnits, months: s.months, status: s.status },
    paidAmount: s.license === 'trial' ? 0 : s.paidAmount,
    periodStart: s.periodStart,
    periodEnd: s.expiresAt,
  };
}

/** A workspace opened outside the product has no subscription row: it gets an ended one to hang invoices on. */
async function placeholderSubscription(trx: Knex.Transaction, workspaceId: number, now: Date): Promise<SubscriptionRow> {
  const [row] = await trx('subscriptions').insert({ workspaceId, license: 'trial', status: 'expired', autorenewal: false, expiresAt: now, periodStart: now }).returning('id');
  return (await findSubscription(trx, row.id, workspaceId, true))!;
}

function fieldsOf(err: AppError): FieldError[] {
  return err.entries.map((e) => ({ key: e.key ?? 'body', descriptions: e.descriptions }));
}

async function place(deps: AppDeps, actor: Actor, input: SubscribeReq, target: { subscriptionId?: number }, now: Date): Promise<Placed> {
  const workspaceId = actor.workspaceId;
  return deps.knex.transaction(async (trx) => {
    // One order at a time per workspace: a second one waits, then replaces the first if it is still unpaid.
    await trx('workspaces').where({ id: workspaceId }).forUpdate().first('id');
    let sub = await workspaceSubscription(trx, workspaceId, now, true);
    if (target.subscriptionId !== undefined) {
      if (!sub || sub.id !== target.subscriptionId) {
        if (!(await findSubscription(trx, target.subscriptionId, workspaceId))) throw errors.notFound(SUBSCRIBE_MESSAGES.notFound);
        throw errors.conflict(SUBSCRIBE_MESSAGES.replaced);
      }
    } else if (sub && paidInForce(sub, now) && !sub.canceledAt) {
      throw errors.conflict(SUBSCRIBE_MESSAGES.alreadySubscribed, 'license');
    }

    const fields: FieldError[] = [];
    const payer = await lastPayer(trx, workspaceId);
    const document = input.document ?? payer?.document ?? null;
    if (!document) fields.push({ key: 'document', descriptions: [DOCUMENT_MESSAGES.required] });

    // An unpaid order this one replaces is canceled first: it may hold the coupon asked for again.
    const superseded = sub ? await cancelOpenInvoices(trx, workspaceId, (q) => q.where({ subscriptionId: sub!.id }).whereIn('kind', ['new', 'upgrade'])) : [];
    sub ??= await placeholderSubscription(trx, workspaceId, now);
    const subscription = sub;

    let coupon: Awaited<ReturnType<typeof redeemCoupon>> | null = null;
    if (input.coupon) {
      try {
        coupon = await redeemCoupon(trx, { workspaceId, subscriptionId: subscription.id, code: input.coupon, months: input.months, now });
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 400) throw err;
        fields.push(...fieldsOf(err));
      }
    }
    const quoteInput: QuoteInput = {
      license: input.license,
      agents: input.agents,
      whatsapp: input.whatsapp,
      instagram: input.instagram,
      campaign: input.campaign,
      months: input.months,
      coupon,
      current: currentOf(subscription),
      usage: await loadUsage(trx, workspaceId),
      today: now,
    };
    for (const f of validateQuote(quoteInput)) if (!fields.some((g) => g.key === f.key)) fields.push(f);
    if (fields.length) throw errors.validation(fields);
    const q = quote(quoteInput);

    if (q.effective === 'period_end') {
      const change: ScheduledChange = { license: q.license as ScheduledChange['license'], ...q.units, months: q.months, total: q.periodPrice, at: new Date(subscription.expiresAt).toISOString() };
      await trx('subscriptions')
        .where({ id: subscription.id, workspaceId })
        .update({ scheduledChange: JSON.stringify(change), canceledAt: null, autorenewal: true, updatedAt: now });
      // A coupon on a downgrade is for the renewals: none of its charges was spent now.
      if (coupon) await trx('couponRedemptions').where({ id: coupon.redemptionId }).update({ chargesLeft: coupon.charges });
      // A renewal already issued for the old plan gives way to one for the new plan.
      superseded.push(...(await cancelOpenInvoices(trx, workspaceId, (qb) => qb.where({ subscriptionId: subscription.id, kind: 'renewal' }))));
      return { kind: 'scheduled', subscription: { ...subscription, scheduledChange: change, canceledAt: null, autorenewal: true }, change, superseded };
    }

    const operator: { email: string } = await trx('operators').where({ id: actor.operatorId }).first('email');
    const workspace: { name: string } = await trx('workspaces').where({ id: workspaceId }).first('name');
    const free = q.total === 0;
    const [invoice] = (await trx('invoices')
      .insert({
        workspaceId,
        subscriptionId: subscription.id,
        orderNumber: newOrderNumber(now, randomBytes(5).toString('hex')),
        kind: q.kind,
        plan: q.license,
        months: q.months,
        agents: q.units.agents,
        numbers: q.units.whatsapp,
        instagramUnits: q.units.instagram,
        campaignUnits: q.units.campaign,
        total: q.subtotal,
        credit: q.credit,
        discount: q.discount,
        amount: q.total,
        couponId: coupon?.id ?? null,
        status: free ? 'paid' : 'pending',
        paymentMethod: free ? input.method : null,
        paidAt: free ? now : null,
        dueAt: orderDueAt(input.method, now),
        periodStart: now,
        expiresAt: q.kind === 'upgrade' ? subscription.expiresAt : new Date(addPeriod(now.toISOString(), q.months)),
        items: JSON.stringify(q.items.map((i) => ({ kind: i.kind, label: i.description, quantity: i.quantity, unitPrice: i.unitPrice, amount: i.amount }))),
        payerName: workspace.name.slice(0, 120),
        payerDocument: document,
        payerEmail: operator.email,
        providerCustomerId: payer && payer.document === document ? payer.providerCustomerId : null,
      })
      .returning('*')) as InvoiceRow[];
    const [tx] = await trx('invoiceTransactions')
      .insert({ workspaceId, invoiceId: invoice!.id, method: input.method, amount: q.total, status: free ? 'paid' : 'pending', paidAt: free ? now : null })
      .returning('id');
    return { kind: 'invoice', invoice: invoice!, transactionId: tx.id as number, subscriptionId: subscription.id, superseded };
  });
}

/** POST /payment/subscribe and POST /payment/{subscriptionId}/change (target.subscriptionId). */
export async function placeOrder(deps: AppDeps, actor: Actor, input: SubscribeReq, target: { subscriptionId?: number } = {}, now = new Date()): Promise<OrderResult> {
  const provider = paymentProvider(deps);
  const placed = await place(deps, actor, input, target, now);
  await cancelCharges(deps, provider, placed.superseded);
  if (placed.kind === 'scheduled') {
    await publishSubscriptionUpdated(deps.publisher, placed.subscription);
    await wakeLifecycleLater(deps, placed.subscription.id);
    return { invoiceId: null, transactionId: null, effective: 'period_end', scheduledChange: placed.change };
  }
  const { invoice, transactionId } = placed;
  if (invoice.status === 'paid') {
    // Nothing to charge (a 100% coupon, a change that costs nothing): the lifecycle applies it at once.
    await wakeLifecycle(deps, placed.subscriptionId, { paid: { invoiceId: invoice.id } }).catch((err: unknown) =>
      deps.logger.warn({ err, invoiceId: invoice.id }, 'subscription lifecycle not woken for a free order; it applies it at its next step'),
    );
  } else {
    await chargeTransaction(deps, provider, invoice, transactionId, now);
  }
  return { invoiceId: invoice.id, transactionId, effective: 'now' };
}
