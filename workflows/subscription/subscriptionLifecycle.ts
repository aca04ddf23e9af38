import { condition, continueAsNew, defineQuery, defineSignal, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { ExpireSubscriptionResult } from '../../activities/subscription/expireSubscription';

export interface SubscriptionLifecycleInput {
  subscriptionId: number;
  workspaceId: number;
  /** ISO time at which the subscription expires. */
  expiresAt: string;
}

export interface SubscriptionRenewal {
  /** The new expiry (ISO) after a renewal or plan change. */
  expiresAt: string;
}

/** Sent after the subscription row got a new expiry, so the lifecycle waits for that one instead. */
export const subscriptionRenewedSignal = defineSignal<[SubscriptionRenewal]>('subscriptionRenewed');
/** The expiry the lifecycle is currently waiting for (ISO). */
export const subscriptionExpiresAtQuery = defineQuery<string>('subscriptionExpiresAt');

const { expireSubscription } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  // Expiry must happen eventually: retry without limit, but gently while the database is away.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One per subscription (`subscription:{id}`): waits until the subscription expires, then expires it.
 * The database row stays the source of truth; the expiry this workflow holds is only when to look again.
 */
export async function subscriptionLifecycle(input: SubscriptionLifecycleInput): Promise<ExpireSubscriptionResult> {
  const state = { expiresAt: input.expiresAt };
  setHandler(subscriptionRenewedSignal, ({ expiresAt }) => {
    state.expiresAt = expiresAt;
  });
  setHandler(subscriptionExpiresAtQuery, () => state.expiresAt);

  for (;;) {
    const waitingFor = state.expiresAt;
    const remaining = Date.parse(waitingFor) - Date.now();
    if (remaining > 0) {
      const woken = await condition(() => state.expiresAt !== waitingFor || workflowInfo().continueAsNewSuggested, remaining);
      if (workflowInfo().continueAsNewSuggested) {
        return continueAsNew<typeof subscriptionLifecycle>({ ...input, expiresAt: state.expiresAt });
      }
      if (woken) continue;
    }
    const outcome = await expireSubscription({ subscriptionId: input.subscriptionId });
    if (outcome.status === 'active') {
      // Renewed meanwhile (in the database, or by a signal during the activity): wait for the new expiry.
      const next = [state.expiresAt, outcome.expiresAt ?? waitingFor].reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b));
      if (Date.parse(next) > Date.parse(waitingFor)) {
        state.expiresAt = next;
        continue;
      }
    }
    log.info('subscription lifecycle finished', { subscriptionId: input.subscriptionId, status: outcome.status });
    return outcome;
  }
}
