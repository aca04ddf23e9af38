import { ActivityFailure, condition, continueAsNew, defineQuery, defineSignal, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { ExpireSubscriptionResult } from '../../activities/subscription/expireSubscription';
import { nextStep, type LifecycleState, type LifecycleStep } from './periods';

export interface SubscriptionLifecycleInput {
  subscriptionId: number;
  workspaceId: number;
  /** ISO time at which the subscription expires (the period this run watches). */
  expiresAt: string;
}

export interface SubscriptionRenewal {
  /** The new expiry (ISO) after a renewal or plan change. */
  expiresAt: string;
}

export interface SubscriptionPayment {
  invoiceId: number;
}

/** Sent after the subscription row got a new expiry, so the lifecycle waits for that one instead. */
export const subscriptionRenewedSignal = defineSignal<[SubscriptionRenewal]>('subscriptionRenewed');
/** An invoice of the subscription was paid (the webhook, a simulation): apply it now. */
export const subscriptionPaidSignal = defineSignal<[SubscriptionPayment]>('subscriptionPaid');
/** The subscription row changed (canceled, a downgrade scheduled): look at it again. */
export const subscriptionChangedSignal = defineSignal('subscriptionChanged');
/** The expiry the lifecycle is currently waiting for (ISO). */
export const subscriptionExpiresAtQuery = defineQuery<string>('subscriptionExpiresAt');

const RENEWAL_RETRY_MS = 3_600_000;
/** A renewal charge the provider refused (not an outage) is tried again a day later. */
const RENEWAL_REFUSED_RETRY_MS = 86_400_000;

const db = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  // What the database holds must happen eventually: retry without limit, gently while it is away.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** The ones that reach the payment provider: bounded, so a provider outage postpones instead of blocking the lifecycle. */
const provider = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 8 },
});

/**
 * One per subscription (`subscription:{id}`, docs/billing.md "Subscription lifecycle"). The database is the truth
 * and this workflow is its clock: it reads the subscription (loadLifecycle), asks `nextStep` what comes next
 * and when, sleeps until then or until a signal says something changed, does that one step in an activity,
 * and reads again. Steps: apply paid invoices (payment signal), a scheduled downgrade at the period end, the
 * renewal invoice 7 days before the end (charged and mailed), reminders 7 and 1 days before, and the end —
 * cancellation, expiry, or the grace period of an unpaid renewal, whose end asks the provider about every open
 * charge (a lost webhook) before it expires the plan. Each new period continues as a new run.
 */
export async function subscriptionLifecycle(input: SubscriptionLifecycleInput): Promise<ExpireSubscriptionResult> {
  let expiresAt = input.expiresAt;
  let woken = false;
  let renewalRetryAt: number | undefined;
  const wake = () => {
    woken = true;
  };
  setHandler(subscriptionRenewedSignal, (renewal) => {
    expiresAt = renewal.expiresAt;
    wake();
  });
  setHandler(subscriptionPaidSignal, wake);
  setHandler(subscriptionChangedSignal, wake);
  setHandler(subscriptionExpiresAtQuery, () => expiresAt);

  const { subscriptionId } = input;
  for (;;) {
    woken = false;
    const state: LifecycleState = await db.loadLifecycle({ subscriptionId });
    if (state.status !== 'missing') expiresAt = state.expiresAt;
    const step: LifecycleStep = nextStep(state, { renewalRetryAt });
    if (step.kind === 'done') {
      log.info('subscription lifecycle finished', { subscriptionId, status: state.status });
      return { status: state.status, expiresAt: state.status === 'missing' ? null : state.expiresAt };
    }
    if (step.kind !== 'apply' && (state.expiresAt !== input.expiresAt || workflowInfo().continueAsNewSuggested)) {
      // A new period (or a long history): the next run starts from what the database says.
      return continueAsNew<typeof subscriptionLifecycle>({ ...input, expiresAt: state.expiresAt });
    }
    const wait = step.at - Date.now();
    if (wait > 0 && (await condition(() => woken, wait))) continue;

    const now = Date.now();
    switch (step.kind) {
      case 'apply':
        await db.applyPaidInvoices({ subscriptionId, now });
        break;
      case 'scheduledChange':
        await db.applyScheduledChange({ subscriptionId, now });
        break;
      case 'reminder':
        await db.remindSubscription({ subscriptionId, days: step.days, expiresAt: state.expiresAt });
        break;
      case 'renewal':
        try {
          const issued = await provider.issueRenewal({ subscriptionId, now });
          renewalRetryAt = issued?.refused ? now + RENEWAL_REFUSED_RETRY_MS : undefined;
        } catch (err) {
          if (!(err instanceof ActivityFailure)) throw err;
          log.warn('renewal invoice not issued; trying again later', { subscriptionId });
          renewalRetryAt = now + RENEWAL_RETRY_MS;
        }
        break;
      case 'end': {
        // A provider that cannot be asked now is asked again before anything expires.
        const reconciled = await provider.reconcileCharges({ subscriptionId }).then(
          () => true,
          (err: unknown) => {
            if (!(err instanceof ActivityFailure)) throw err;
            return false;
          },
        );
        const outcome = await db.expireSubscription({ subscriptionId, now, reconciled });
        if (outcome.status !== 'active') {
          log.info('subscription lifecycle finished', { subscriptionId, status: outcome.status });
          return outcome;
        }
        // Nothing expires while the provider cannot be asked about an open charge: ask again in an hour.
        if (!reconciled) await condition(() => woken, RENEWAL_RETRY_MS);
        break;
      }
    }
  }
}
