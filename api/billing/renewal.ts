import type { Knex } from 'knex';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { Publisher } from '../realtime/publisher';
import type { TemporalGateway } from '../temporal/client';
import { daysMs, GRACE_DAYS, reminderKey, renews, addPeriod, type ReminderDays } from '../../workflows/subscription/periods';
import { takeCouponCharge } from './coupons';
import { chargeTransaction } from './charge';
import { planOf, UNIT_KEYS } from './plans';
import { quote } from './pricing';
import { calendarDay, percentOf } from './proration';
import type { PaymentProvider } from './provider';
import { PaymentProviderError } from './providers/errors';
import { findSubscription, lastPayer, OPEN_TRANSACTION_STATUSES, ownerEmails, transactionsOf, type InvoiceRow } from './queries';
import { acceptPaymentEvent } from './webhookEvents';
import { renewalMail, trialEndingMail } from './mails';

/**
 * The renewal, the reminders and the lost-webhook recovery of the `subscription:{id}` workflow (docs/billing.md
 * "Subscription lifecycle"). Each is safe to repeat: the renewal invoice is found again by its period, its charge
 * by its order number, and a reminder is recorded in `reminders_sent` once it went out.
 */

export interface RenewalDeps {
  knex: Knex;
  logger: Logger;
  publisher: Publisher;
  mailer: Mailer;
  provider: PaymentProvider;
  publicUrl: string;
}

const paymentLink = (publicUrl: string, invoiceId: number) => `${publicUrl}/settings/billing/payment/${invoiceId}`;

async function recipients(knex: Knex, workspaceId: number, payerEmail?: string | null): Promise<string[]> {
  const owners = await ownerEmails(knex, workspaceId);
  return [...new Set([payerEmail, ...owners].filter((e): e is string => Boolean(e)).map((e) => e.toLowerCase()))];
}

async function markReminder(knex: Knex, subscriptionId: number, key: string): Promise<void> {
  await knex('subscriptions').where({ id: subscriptionId }).whereRaw('NOT (? = ANY(reminders_sent))', [key]).update({ remindersSent: knex.raw('array_append(reminders_sent, ?)', [key]) });
}

/**
 * Issues the renewal invoice of the period that ends at expiresAt (its price: the plan — or the downgrade
 * scheduled for then — at list price, minus a coupon charge left), charges it with the payer and method of the
 * last payment, sets the grace end, and mails the payment link (the 7-day reminder). Answers the invoice (refused:
 * the provider refused its charge, the invoice is failed), or null when the plan does not renew.
 */
export async function issueRenewal(deps: RenewalDeps, subscriptionId: number, now: Date): Promise<{ invoiceId: number; refused: boolean } | null> {
  const made = await deps.knex.transaction(async (trx) => {
    const s = await findSubscription(trx, subscriptionId, undefined, true);
    if (!s || s.status !== 'active' || !renews({ license: s.license, autorenewal: s.autorenewal, canceled: Boolean(s.canceledAt) })) return null;
    const periodStart = new Date(s.expiresAt);
    const existing = (await trx('invoices')
      .where({ subscriptionId, kind: 'renewal', periodStart, workspaceId: s.workspaceId })
      .whereNotIn('status', ['canceled', 'failed', 'expired'])
      .orderBy('id', 'desc')
      .first()) as InvoiceRow | undefined;
    if (existing) return { s, invoice: existing };

    const target = s.scheduledChange ?? { license: s.license, agents: s.agents, whatsapp: s.numbers, instagram: s.instagramUnits, campaign: s.campaignUnits, months: s.months };
    const plan = planOf(target.license);
    if (!plan) return null;
    // Never below what the plan includes (a row written by hand): the quote would refuse it.
    const units = Object.fromEntries(UNIT_KEYS.map((k) => [k, Math.max(target[k], plan.included[k])])) as Record<(typeof UNIT_KEYS)[number], number>;
    const priced = quote({ license: target.license, ...units, months: target.months, today: now });
    const coupon = await takeCouponCharge(trx, { workspaceId: s.workspaceId, subscriptionId, months: priced.months });
    const discount = coupon ? percentOf(priced.subtotal, coupon.percent) : 0;
    const amount = priced.subtotal - discount;
    const payer = await lastPayer(trx, s.workspaceId);
    const workspace: { name: string } = await trx('workspaces').where({ id: s.workspaceId }).first('name');
    const lastPaid: { paymentMethod: 'pix' | 'boleto' | null } | undefined = await trx('invoices').where({ workspaceId: s.workspaceId, status: 'paid' }).whereNotNull('paymentMethod').orderBy('paidAt', 'desc').first('paymentMethod');
    const method = lastPaid?.paymentMethod ?? 'pix';
    const [{ n }] = (await trx('invoices').where({ subscriptionId, kind: 'renewal', periodStart }).count({ n: '*' })) as { n: string | number }[];
    const paid = amount === 0;
    const [invoice] = (await trx('invoices')
      .insert({
        workspaceId: s.workspaceId,
        subscriptionId,
        orderNumber: `R${subscriptionId}-${calendarDay(periodStart).replace(/-/g, '')}-${Number(n) + 1}`,
        kind: 'renewal',
        plan: priced.license,
        months: priced.months,
        agents: priced.units.agents,
        numbers: priced.units.whatsapp,
        instagramUnits: priced.units.instagram,
        campaignUnits: priced.units.campaign,
        total: priced.subtotal,
        credit: 0,
        discount,
        amount,
        couponId: coupon?.id ?? null,
        status: paid ? 'paid' : 'pending',
        paymentMethod: paid ? method : null,
        paidAt: paid ? now : null,
        dueAt: periodStart.getTime() > now.getTime() ? periodStart : now,
        periodStart,
        expiresAt: new Date(addPeriod(periodStart.toISOString(), priced.months, s.billingDay)),
        items: JSON.stringify(priced.items.map((i) => ({ kind: i.kind, label: i.description, quantity: i.quantity, unitPrice: i.unitPrice, amount: i.amount }))),
        payerName: payer?.name ?? workspace.name,
        payerDocument: payer?.document ?? null,
        payerEmail: payer?.email ?? null,
        providerCustomerId: payer?.providerCustomerId ?? null,
      })
      .returning('*')) as InvoiceRow[];
    await trx('invoiceTransactions').insert({ workspaceId: s.workspaceId, invoiceId: invoice!.id, method, amount, status: paid ? 'paid' : 'pending', paidAt: paid ? now : null });
    if (!s.graceEndsAt) await trx('subscriptions').where({ id: subscriptionId }).update({ graceEndsAt: new Date(periodStart.getTime() + daysMs(GRACE_DAYS)), updatedAt: new Date() });
    deps.logger.info({ subscriptionId, invoiceId: invoice!.id, amount }, 'renewal invoice issued');
    return { s, invoice: invoice! };
  });
  if (!made) return null;
  const { s, invoice } = made;
  const [transaction] = await transactionsOf(deps.knex, s.workspaceId, [invoice.id]);
  if (invoice.status !== 'paid' && transaction && !transaction.providerReference && (OPEN_TRANSACTION_STATUSES as readonly string[]).includes(transaction.status)) {
    try {
      await chargeTransaction({ knex: deps.knex, logger: deps.logger }, deps.provider, invoice, transaction.id, now, { keepOnTransient: true });
    } catch (err) {
      // An outage keeps the invoice for the activity's retry; a refusal leaves it failed, and the lifecycle issues
      // the renewal again a day later (RENEWAL_REFUSED_RETRY_MS).
      if (!(err instanceof PaymentProviderError) || err.transient) throw err;
      deps.logger.warn({ err, subscriptionId, invoiceId: invoice.id }, 'renewal charge refused');
      return { invoiceId: invoice.id, refused: true };
    }
  }
  const key = reminderKey(7, new Date(s.expiresAt).toISOString());
  if (!s.remindersSent.includes(key)) {
    const link = paymentLink(deps.publicUrl, invoice.id);
    const workspace: { name: string } = await deps.knex('workspaces').where({ id: s.workspaceId }).first('name');
    for (const to of await recipients(deps.knex, s.workspaceId, invoice.payerEmail)) {
      await deps.mailer.send(renewalMail({ to, workspace: workspace.name, license: invoice.plan, amount: invoice.amount, expiresAt: s.expiresAt, link, daysLeft: 7 }));
    }
    await markReminder(deps.knex, subscriptionId, key);
  }
  return { invoiceId: invoice.id, refused: false };
}

/**
 * A reminder `days` before the period that ends at `expiresAt`: a trial's end, or an unpaid renewal invoice.
 * Sent once (reminders_sent); a stale one (the period moved on) is dropped.
 */
export async function remindSubscription(deps: Omit<RenewalDeps, 'provider' | 'publisher'>, input: { subscriptionId: number; days: ReminderDays; expiresAt: string }): Promise<boolean> {
  const s = await findSubscription(deps.knex, input.subscriptionId);
  if (!s || s.status !== 'active' || new Date(s.expiresAt).toISOString() !== input.expiresAt) return false;
  const key = reminderKey(input.days, input.expiresAt);
  if (s.remindersSent.includes(key)) return false;
  const workspace: { name: string } = await deps.knex('workspaces').where({ id: s.workspaceId }).first('name');
  let sent = false;
  if (s.license === 'trial') {
    const link = `${deps.publicUrl}/settings/billing/subscription`;
    for (const to of await recipients(deps.knex, s.workspaceId)) {
      await deps.mailer.send(trialEndingMail({ to, workspace: workspace.name, expiresAt: s.expiresAt, link, daysLeft: input.days }));
      sent = true;
    }
  } else {
    const invoice = (await deps.knex('invoices')
      .where({ subscriptionId: s.id, kind: 'renewal', periodStart: s.expiresAt })
      .whereIn('status', ['pending', 'overdue'])
      .orderBy('id', 'desc')
      .first()) as InvoiceRow | undefined;
    if (invoice && !s.canceledAt) {
      const link = paymentLink(deps.publicUrl, invoice.id);
      for (const to of await recipients(deps.knex, s.workspaceId, invoice.payerEmail)) {
        await deps.mailer.send(renewalMail({ to, workspace: workspace.name, license: invoice.plan, amount: invoice.amount, expiresAt: s.expiresAt, link, daysLeft: input.days }));
        sent = true;
      }
    }
  }
  await markReminder(deps.knex, s.id, key);
  return sent;
}

/**
 * Asks the provider about every open charge of the subscription's invoices (getCharge) and hands what changed to
 * billing as a notification would (acceptPaymentEvent, event id `query:{reference}:{status}`): a payment whose
 * webhook was lost is found here, before the lifecycle expires anything. Answers how many charges had news.
 */
export async function reconcileCharges(deps: Pick<RenewalDeps, 'knex' | 'logger' | 'publisher' | 'provider'> & { temporal?: TemporalGateway }, subscriptionId: number): Promise<number> {
  const open: { providerReference: string; status: string }[] = await deps
    .knex('invoiceTransactions as t')
    .join('invoices as i', function () {
      this.on('i.id', 't.invoiceId').andOn('i.workspaceId', 't.workspaceId');
    })
    .where('i.subscriptionId', subscriptionId)
    .whereIn('t.status', [...OPEN_TRANSACTION_STATUSES])
    .whereNotNull('t.providerReference')
    .select('t.providerReference', 't.status');
  let news = 0;
  for (const tx of open) {
    let state;
    try {
      state = await deps.provider.getCharge(tx.providerReference);
    } catch (err) {
      if (err instanceof PaymentProviderError && err.status === 404) {
        deps.logger.warn({ providerReference: tx.providerReference }, 'open charge unknown to the provider');
        continue;
      }
      throw err;
    }
    if (state.status === 'pending' || state.status === tx.status) continue;
    const accepted = await acceptPaymentEvent(deps, {
      provider: deps.provider.name,
      type: 'CHARGE_QUERIED',
      event: { eventId: `query:${tx.providerReference}:${state.status}`, providerReference: tx.providerReference, status: state.status, paidAt: state.paidAt },
    });
    if (!accepted.duplicate) news += 1;
    deps.logger.info({ subscriptionId, providerReference: tx.providerReference, status: state.status }, 'charge status recovered from the provider');
  }
  return news;
}
