import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { Actor } from '../policy/policy';
import { endOf } from '../../workflows/subscription/periods';
import { cancelCharges, cancelOpenInvoices } from './charge';
import { publishSubscriptionUpdated, wakeLifecycleLater } from './events';
import { paymentProvider } from './providers';
import { findSubscription, type SubscriptionRow } from './queries';

export const CANCEL_MESSAGES = {
  notFound: 'Assinatura não encontrada.',
  ended: 'Esta assinatura já terminou.',
  trial: 'O período de avaliação termina sozinho na data indicada: não há cobrança para cancelar.',
} as const;

/**
 * DELETE /payment/{subscriptionId} (SPEC §1 terms, docs/billing.md "Canceling"): no refund; the plan stays
 * `active` with `canceledAt` until `expiresAt`, then its lifecycle makes it `canceled`. Renewal stops, a
 * scheduled downgrade is dropped, and every unpaid invoice of the subscription is canceled with its charge.
 * Canceling twice answers the same subscription.
 */
export async function cancelSubscription(deps: AppDeps, actor: Actor, subscriptionId: number, now = new Date()): Promise<SubscriptionRow> {
  const done = await deps.knex.transaction(async (trx) => {
    const s = await findSubscription(trx, subscriptionId, actor.workspaceId, true);
    if (!s) throw errors.notFound(CANCEL_MESSAGES.notFound);
    if (s.canceledAt) return { s, references: [] as string[], changed: false };
    const end = endOf({ expiresAt: new Date(s.expiresAt).toISOString(), graceEndsAt: s.graceEndsAt ? new Date(s.graceEndsAt).toISOString() : null });
    if (s.status !== 'active' || end <= now.getTime()) throw errors.conflict(CANCEL_MESSAGES.ended);
    if (s.license === 'trial') throw errors.conflict(CANCEL_MESSAGES.trial);
    const patch = { canceledAt: now, autorenewal: false, scheduledChange: null, graceEndsAt: null };
    await trx('subscriptions').where({ id: s.id, workspaceId: actor.workspaceId }).update({ ...patch, updatedAt: now });
    const references = await cancelOpenInvoices(trx, actor.workspaceId, (q) => q.where({ subscriptionId: s.id }));
    return { s: { ...s, ...patch }, references, changed: true };
  });
  if (done.changed) {
    await cancelCharges(deps, paymentProvider(deps), done.references);
    await publishSubscriptionUpdated(deps.publisher, done.s);
    await wakeLifecycleLater(deps, done.s.id);
  }
  return done.s;
}
