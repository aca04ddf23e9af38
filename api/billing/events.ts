import type { Knex } from 'knex';
import type { Logger } from '../logger';
import type { Publisher } from '../realtime/publisher';
import { topics } from '../realtime/publisher';
import type { TemporalGateway } from '../temporal/client';
import { presentSubscription } from './presenters';
import { findSubscription, type SubscriptionRow } from './queries';

/**
 * What billing tells after a commit (docs/billing-api.md "Realtime"): `invoice.paid` and `subscription.updated` on
 * the workspace's topic, and the `subscription:{id}` lifecycle woken with the news.
 */

export function publishInvoicePaid(publisher: Publisher, workspaceId: number, data: { invoiceId: number; transactionId: number }): Promise<boolean> {
  return publisher.publish(topics.workspace(workspaceId), 'invoice.paid', data);
}

export function publishSubscriptionUpdated(publisher: Publisher, subscription: SubscriptionRow): Promise<boolean> {
  return publisher.publish(topics.workspace(subscription.workspaceId), 'subscription.updated', { subscription: presentSubscription(subscription) });
}

/** Wakes the subscription's lifecycle (starting it if none runs). Throws when Temporal cannot be reached. */
export async function wakeLifecycle(deps: { knex: Knex; temporal: TemporalGateway }, subscriptionId: number, news: { paid: { invoiceId: number } } | 'changed'): Promise<void> {
  const s = await findSubscription(deps.knex, subscriptionId);
  if (!s) return;
  await deps.temporal.signalSubscriptionLifecycle({ subscriptionId: s.id, workspaceId: s.workspaceId, expiresAt: new Date(s.expiresAt).toISOString() }, news);
}

/** wakeLifecycle for a change the lifecycle would also find at its next step: a failure is only logged. */
export function wakeLifecycleLater(deps: { knex: Knex; temporal: TemporalGateway; logger: Logger }, subscriptionId: number): Promise<void> {
  return wakeLifecycle(deps, subscriptionId, 'changed').catch((err: unknown) => deps.logger.warn({ err, subscriptionId }, 'subscription lifecycle not told of the change; it reads it at its next step'));
}
