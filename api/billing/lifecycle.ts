import type { Knex } from 'knex';
import type { Logger } from '../logger';
import type { Publisher } from '../realtime/publisher';
import { topics } from '../realtime/publisher';
import { addPeriod, billingDayOf, daysMs, endOf, GRACE_DAYS, renews, type LifecycleState } from '../../workflows/subscription/periods';
import { planOf, periodPrice, type PlanUnits } from './plans';
import { unusedCredit } from './proration';
import { cancelOpenInvoices } from './charge';
import { publishSubscriptionUpdated } from './events';
import { findSubscription, type InvoiceRow, type SubscriptionRow } from './queries';

/**
 * The database side of the `subscription:{id}` workflow (docs/billing.md "Subscription lifecycle"); its activities
 * call these. Each one locks the subscription row, is safe to repeat, and publishes after its commit.
 */

type Deps = { knex: Knex; publisher: Publisher; logger: Logger };

const iso = (d: Date | string) => new Date(d).toISOString();

/** What the workflow needs to choose its next step (workflows/subscription/periods.ts nextStep). */
export async function loadLifecycle(knex: Knex, subscriptionId: number): Promise<LifecycleState> {
  const s = await findSubscription(knex, subscriptionId);
  if (!s) {
    const never = new Date(0).toISOString();
    return { status: 'missing', license: 'trial', autorenewal: false, canceled: false, periodStart: never, expiresAt: never, graceEndsAt: null, scheduledChangeAt: null, renewal: null, unapplied: 0, remindersSent: [] };
  }
  const [renewal, unapplied] = await Promise.all([
    knex('invoices')
      .where({ subscriptionId, kind: 'renewal', periodStart: s.expiresAt })
      .whereNotIn('status', ['canceled', 'failed', 'expired'])
      .orderBy('id', 'desc')
      .first('id', 'status') as Promise<{ id: number; status: string } | undefined>,
    knex('invoices').where({ subscriptionId, status: 'paid' }).whereNull('appliedAt').count({ n: '*' }) as Promise<{ n: string | number }[]>,
  ]);
  return {
    status: s.status,
    license: s.license,
    autorenewal: s.autorenewal,
    canceled: Boolean(s.canceledAt),
    periodStart: iso(s.periodStart),
    expiresAt: iso(s.expiresAt),
    graceEndsAt: s.graceEndsAt ? iso(s.graceEndsAt) : null,
    scheduledChangeAt: s.scheduledChange?.at ?? null,
    renewal: renewal ? { invoiceId: renewal.id, status: renewal.status } : null,
    unapplied: Number(unapplied[0]?.n ?? 0),
    remindersSent: s.remindersSent ?? [],
  };
}

function unitsOfInvoice(invoice: InvoiceRow): PlanUnits {
  return { agents: invoice.agents, whatsapp: invoice.numbers, instagram: invoice.instagramUnits, campaign: invoice.campaignUnits };
}

/**
 * How one paid invoice changes the subscription (docs/billing.md "What a payment changes"):
 * - new: a period starts on the payment day (renewed on that day of the month), with the invoice's plan;
 * - upgrade: the invoice's plan from the payment on, the period end unchanged (a new period if it already ended);
 * - renewal: the period extended to the invoice's period end (same day of the month; annual = 12 months), or a new
 *   period from the payment when the plan had already expired.
 * `periodStart`/`paidAmount` are the paid window the credit of unused time is taken from.
 */
export function applyInvoice(s: SubscriptionRow, invoice: InvoiceRow, now: Date): Partial<SubscriptionRow> {
  const paidAt = invoice.paidAt ? new Date(invoice.paidAt) : now;
  const value = invoice.total - invoice.discount;
  const plan = planOf(invoice.plan);
  const units = unitsOfInvoice(invoice);
  const listPrice = plan && (invoice.months === 1 || invoice.months === 12) ? periodPrice(plan, units, invoice.months) : s.total;
  const planPatch = { license: invoice.plan, agents: units.agents, numbers: units.whatsapp, instagramUnits: units.instagram, campaignUnits: units.campaign, months: invoice.months, total: listPrice };
  const fresh = (): Partial<SubscriptionRow> => ({
    ...planPatch,
    status: 'active',
    autorenewal: true,
    canceledAt: null,
    graceEndsAt: null,
    scheduledChange: null,
    periodStart: paidAt,
    paidAmount: value,
    billingDay: billingDayOf(iso(paidAt)),
    expiresAt: new Date(addPeriod(iso(paidAt), invoice.months)),
  });
  const expires = new Date(s.expiresAt).getTime();
  if (invoice.kind === 'new' || s.status !== 'active' || s.license === 'trial') return fresh();
  if (invoice.kind === 'upgrade') {
    if (expires <= paidAt.getTime()) return fresh();
    return { ...planPatch, autorenewal: true, canceledAt: null, scheduledChange: null, periodStart: paidAt, paidAmount: value };
  }
  // A renewal: paid while the plan still works (its grace included) extends it; after that it starts anew.
  if (endOf({ expiresAt: iso(s.expiresAt), graceEndsAt: s.graceEndsAt ? iso(s.graceEndsAt) : null }) <= paidAt.getTime()) return fresh();
  const renewsThisPeriod = invoice.periodStart && new Date(invoice.periodStart).getTime() === expires;
  const nextEnd = renewsThisPeriod ? new Date(invoice.expiresAt) : new Date(addPeriod(iso(s.expiresAt), invoice.months, s.billingDay));
  const early = paidAt.getTime() < expires;
  return {
    expiresAt: nextEnd,
    graceEndsAt: null,
    periodStart: early ? paidAt : new Date(expires),
    paidAmount: (early ? unusedCredit({ paidAmount: s.paidAmount, periodStart: s.periodStart, periodEnd: s.expiresAt, today: paidAt }) : 0) + value,
  };
}

function rowPatch(patch: Partial<SubscriptionRow>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...patch, updatedAt: new Date() };
  if ('scheduledChange' in patch) out.scheduledChange = patch.scheduledChange ? JSON.stringify(patch.scheduledChange) : null;
  return out;
}

/**
 * Applies every paid invoice of the subscription that has not changed it yet, oldest payment first. A new
 * period or an upgrade cancels a renewal invoice issued for the old plan (the lifecycle issues the right one).
 */
export async function applyPaidInvoices(deps: Deps & { cancelCharges(references: string[]): Promise<void> }, subscriptionId: number, now: Date): Promise<number> {
  const done = await deps.knex.transaction(async (trx) => {
    let s = await findSubscription(trx, subscriptionId, undefined, true);
    if (!s) return undefined;
    const invoices = (await trx('invoices')
      .where({ subscriptionId, status: 'paid', workspaceId: s.workspaceId })
      .whereNull('appliedAt')
      .orderBy([{ column: 'paidAt', order: 'asc' }, { column: 'id', order: 'asc' }])
      .forUpdate()) as InvoiceRow[];
    const references: string[] = [];
    for (const invoice of invoices) {
      const patch = applyInvoice(s, invoice, now);
      s = { ...s, ...patch };
      await trx('subscriptions').where({ id: subscriptionId }).update(rowPatch(patch));
      await trx('invoices').where({ id: invoice.id, workspaceId: s.workspaceId }).update({ appliedAt: now, updatedAt: trx.fn.now() });
      if (invoice.kind !== 'renewal') {
        references.push(...(await cancelOpenInvoices(trx, s.workspaceId, (q) => q.where({ subscriptionId, kind: 'renewal' }))));
      }
      deps.logger.info({ subscriptionId, invoiceId: invoice.id, kind: invoice.kind, expiresAt: s.expiresAt }, 'paid invoice applied to the subscription');
    }
    return { s, applied: invoices.length, references };
  });
  if (!done?.applied) return 0;
  await deps.cancelCharges(done.references);
  await publishSubscriptionUpdated(deps.publisher, done.s);
  return done.applied;
}

/** A downgrade asked for the period end takes effect (once its time has come). */
export async function applyScheduledChange(deps: Deps, subscriptionId: number, now: Date): Promise<boolean> {
  const s = await deps.knex.transaction(async (trx) => {
    const row = await findSubscription(trx, subscriptionId, undefined, true);
    const change = row?.scheduledChange;
    if (!row || !change || Date.parse(change.at) > now.getTime()) return undefined;
    const patch: Partial<SubscriptionRow> = {
      license: change.license,
      agents: change.agents,
      numbers: change.whatsapp,
      instagramUnits: change.instagram,
      campaignUnits: change.campaign,
      months: change.months,
      total: change.total,
      scheduledChange: null,
    };
    await trx('subscriptions').where({ id: subscriptionId }).update(rowPatch(patch));
    return { ...row, ...patch };
  });
  if (!s) return false;
  await publishSubscriptionUpdated(deps.publisher, s);
  return true;
}

export interface EndOfPeriod {
  /** The row's status after the call; 'missing' when the subscription no longer exists. */
  status: SubscriptionRow['status'] | 'missing';
  /** The row's expiry (ISO), so the lifecycle can keep waiting when the subscription was renewed meanwhile. */
  expiresAt: string | null;
}

/**
 * The end of a period (`now` ≥ expiresAt, or ≥ the grace end): a canceled plan becomes `canceled`; a renewing
 * one that has no grace yet gets GRACE_DAYS; anything else unpaid becomes `expired` — but only once the open
 * charges were asked about (`reconciled`) and no paid invoice waits to be applied. An ended plan is told to the
 * workspace's open apps (`subscription.expired`: the expired-plan banner). Safe to repeat.
 */
export async function endPeriod(deps: Deps, input: { subscriptionId: number; now: Date; reconciled: boolean }): Promise<EndOfPeriod> {
  const { subscriptionId, now } = input;
  const result = await deps.knex.transaction(async (trx) => {
    const s = await findSubscription(trx, subscriptionId, undefined, true);
    if (!s) return { status: 'missing' as const, expiresAt: null, ended: false, workspaceId: 0 };
    const keep = { status: s.status, expiresAt: iso(s.expiresAt), ended: false, workspaceId: s.workspaceId };
    if (s.status !== 'active') return keep;
    const state = { expiresAt: iso(s.expiresAt), graceEndsAt: s.graceEndsAt ? iso(s.graceEndsAt) : null };
    if (endOf(state) > now.getTime()) return keep;
    const paidWaiting = await trx('invoices').where({ subscriptionId, status: 'paid' }).whereNull('appliedAt').first('id');
    if (paidWaiting) return keep;
    let status: SubscriptionRow['status'];
    if (s.canceledAt) status = 'canceled';
    else if (renews({ license: s.license, autorenewal: s.autorenewal, canceled: false }) && !s.graceEndsAt) {
      await trx('subscriptions').where({ id: subscriptionId }).update({ graceEndsAt: new Date(Date.parse(state.expiresAt) + daysMs(GRACE_DAYS)), updatedAt: new Date() });
      return keep;
    } else if (!input.reconciled) return keep;
    else status = 'expired';
    await trx('subscriptions').where({ id: subscriptionId, status: 'active' }).update({ status, updatedAt: new Date() });
    return { status, expiresAt: keep.expiresAt, ended: true, workspaceId: s.workspaceId };
  });
  if (result.ended) {
    await deps.publisher.publish(topics.workspace(result.workspaceId), 'subscription.expired', { subscriptionId });
    deps.logger.info({ subscriptionId, workspaceId: result.workspaceId, status: result.status }, 'subscription ended');
  }
  return { status: result.status, expiresAt: result.expiresAt };
}
