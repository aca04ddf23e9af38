import { activityInfo } from '@temporalio/activity';
import { endPeriod, type EndOfPeriod } from '../../api/billing/lifecycle';
import type { ActivityDeps } from '../deps';

export interface ExpireSubscriptionInput {
  subscriptionId: number;
  /** The workflow's clock (ms); default: when this attempt was scheduled. */
  now?: number;
  /** Whether the open charges were asked about (reconcileCharges); false keeps an unpaid renewing plan. Default true. */
  reconciled?: boolean;
}

export type ExpireSubscriptionResult = EndOfPeriod;

/**
 * The end of a period (api/billing/lifecycle.ts endPeriod): a canceled plan becomes `canceled`, a renewing one
 * starts its grace period, anything else unpaid becomes `expired` and the workspace's open apps are told
 * (`subscription.expired`, the expired-plan banner). Safe to retry: every change is conditional on the row.
 */
export const expireSubscription =
  (deps: ActivityDeps) =>
  async ({ subscriptionId, now, reconciled = true }: ExpireSubscriptionInput): Promise<ExpireSubscriptionResult> => {
    // "Now" is the Temporal clock that fired the timer, not the database's: the two agree in production, and
    // under the time-skipping test server only the former has moved.
    const asOf = new Date(now ?? activityInfo().currentAttemptScheduledTimestampMs);
    return endPeriod(deps, { subscriptionId, now: asOf, reconciled });
  };
