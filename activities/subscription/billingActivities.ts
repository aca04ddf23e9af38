import { loadConfig } from '../../api/config';
import { createMailer, type Mailer } from '../../api/mail/mailer';
import type { PaymentProvider } from '../../api/billing/provider';
import { paymentProvider } from '../../api/billing/providers';
import { cancelCharges } from '../../api/billing/charge';
import { applyPaidInvoices, applyScheduledChange, loadLifecycle } from '../../api/billing/lifecycle';
import { issueRenewal, reconcileCharges, remindSubscription } from '../../api/billing/renewal';
import type { LifecycleState, ReminderDays } from '../../workflows/subscription/periods';
import type { ActivityDeps } from '../deps';

export interface BillingActivityOptions {
  /** The mailer of the reminders (default: the configured one). */
  mailer: Mailer;
  /** The payment provider (default: paymentProvider of the configuration). */
  provider: PaymentProvider;
}

/**
 * The activities of the `subscription:{id}` lifecycle (workflows/subscription/subscriptionLifecycle.ts); the work
 * itself is in api/billing/lifecycle.ts and renewal.ts. `now` always comes from the workflow's clock.
 */
export function billingActivities(deps: ActivityDeps, options: Partial<BillingActivityOptions> = {}) {
  const config = () => deps.config ?? loadConfig();
  let mailer: Mailer | undefined = options.mailer;
  let provider: PaymentProvider | undefined = options.provider;
  const mail = () => (mailer ??= createMailer(config(), deps.logger));
  const pay = () => (provider ??= paymentProvider({ ...deps, config: config() }));
  return {
    async loadLifecycle({ subscriptionId }: { subscriptionId: number }): Promise<LifecycleState> {
      return loadLifecycle(deps.knex, subscriptionId);
    },
    async applyPaidInvoices({ subscriptionId, now }: { subscriptionId: number; now: number }): Promise<number> {
      return applyPaidInvoices({ ...deps, cancelCharges: (refs) => cancelCharges(deps, pay(), refs) }, subscriptionId, new Date(now));
    },
    async applyScheduledChange({ subscriptionId, now }: { subscriptionId: number; now: number }): Promise<boolean> {
      return applyScheduledChange(deps, subscriptionId, new Date(now));
    },
    async issueRenewal({ subscriptionId, now }: { subscriptionId: number; now: number }): Promise<{ invoiceId: number; refused: boolean } | null> {
      return issueRenewal({ ...deps, mailer: mail(), provider: pay(), publicUrl: config().publicUrl }, subscriptionId, new Date(now));
    },
    async remindSubscription(input: { subscriptionId: number; days: ReminderDays; expiresAt: string }): Promise<boolean> {
      return remindSubscription({ ...deps, mailer: mail(), publicUrl: config().publicUrl }, input);
    },
    /** Asks the provider about the subscription's open charges (a lost webhook) before anything expires. */
    async reconcileCharges({ subscriptionId }: { subscriptionId: number }): Promise<number> {
      return reconcileCharges({ ...deps, provider: pay() }, subscriptionId);
    },
  };
}
