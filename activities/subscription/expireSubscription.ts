import { activityInfo } from '@temporalio/activity';
import { Subscription, type SubscriptionStatus } from '../../api/models/Subscription';
import { topics } from '../../api/realtime/publisher';
import type { ActivityDeps } from '../deps';

export interface ExpireSubscriptionInput {
  subscriptionId: number;
}

export interface ExpireSubscriptionResult {
  /** The row's status after the call; 'missing' when the subscription no longer exists. */
  status: SubscriptionStatus | 'missing';
  /** The row's expiry (ISO), so the lifecycle can keep waiting when the subscription was renewed meanwhile. */
  expiresAt: string | null;
}

/**
 * Marks the subscription expired if it is still active and its expiry has passed, then tells the open
 * apps of its workspace (expired-plan banner). Safe to retry: the update is conditional, and the event
 * is published whenever the row ends up expired, so a retry after a failed publish still delivers it.
 */
export const expireSubscription =
  (deps: ActivityDeps) =>
  async ({ subscriptionId }: ExpireSubscriptionInput): Promise<ExpireSubscriptionResult> => {
    // "Now" is the Temporal clock that fired the expiry timer, not the database's: the two agree in
    // production, and under the time-skipping test server only the former has moved.
    const asOf = new Date(activityInfo().currentAttemptScheduledTimestampMs);
    await Subscription.query(deps.knex)
      .patch({ status: 'expired', updatedAt: new Date() })
      .where({ id: subscriptionId, status: 'active' })
      .where('expiresAt', '<=', asOf);
    const row = await Subscription.query(deps.knex).findById(subscriptionId).select('id', 'workspaceId', 'status', 'expiresAt');
    if (!row) return { status: 'missing', expiresAt: null };
    if (row.status === 'expired') {
      await deps.publisher.publish(topics.workspace(row.workspaceId), 'subscription.expired', { subscriptionId });
      deps.logger.info({ subscriptionId, workspaceId: row.workspaceId }, 'subscription expired');
    }
    return { status: row.status, expiresAt: row.expiresAt.toISOString() };
  };
