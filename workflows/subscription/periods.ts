/**
 * The subscription's calendar (docs/billing.md "Subscription lifecycle"), pure so the workflow and the api share
 * it: when a period ends, when the renewal is charged, when reminders go out, when an unpaid plan expires, and
 * which of those comes next. Times are ISO strings; calendar days are read in Brasília time (UTC−03:00 all
 * year since 2019, so a fixed offset is exact).
 */

const DAY_MS = 86_400_000;
const BRASILIA_OFFSET_MS = -3 * 3_600_000;

/** The renewal invoice is issued, charged and mailed this many days before the period ends (SPEC §9). */
export const RENEWAL_LEAD_DAYS = 7;
/** E-mail reminders before the period ends, in days (the 7-day one of a renewing plan is the renewal's e-mail). */
export const REMINDER_DAYS = [7, 1] as const;
export type ReminderDays = (typeof REMINDER_DAYS)[number];
/**
 * Days a renewing plan keeps working after its period ended unpaid: a boleto paid on its due date is confirmed
 * by the bank one to three business days later, and the plan must not lapse meanwhile.
 */
export const GRACE_DAYS = 3;

export const daysMs = (days: number) => days * DAY_MS;

/** The period end after `from` (an ISO instant): `months` later, on `billingDay` (clamped to the month's length), same time of day. */
export function addPeriod(from: string, months: number, billingDay?: number | null): string {
  const local = new Date(Date.parse(from) + BRASILIA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const day = billingDay ?? local.getUTCDate();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = Date.UTC(year, month, Math.min(day, lastDay), local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds());
  return new Date(end - BRASILIA_OFFSET_MS).toISOString();
}

/** The day of the month (1..31) of an instant in Brasília: the day renewals keep. */
export function billingDayOf(at: string): number {
  return new Date(Date.parse(at) + BRASILIA_OFFSET_MS).getUTCDate();
}

/** What the workflow needs to know of its subscription, as `loadLifecycle` reads it from the database. */
export interface LifecycleState {
  status: 'active' | 'expired' | 'canceled' | 'missing';
  license: string;
  autorenewal: boolean;
  canceled: boolean;
  periodStart: string;
  expiresAt: string;
  graceEndsAt: string | null;
  /** When a scheduled downgrade takes effect (the period end it was asked for). */
  scheduledChangeAt: string | null;
  /** The renewal invoice of the period that ends at expiresAt, if one was issued and is not canceled. */
  renewal: { invoiceId: number; status: string } | null;
  /** Paid invoices of the subscription that have not changed it yet (a payment signal's news). */
  unapplied: number;
  remindersSent: string[];
}

export type LifecycleStep =
  | { kind: 'apply'; at: number }
  | { kind: 'scheduledChange'; at: number }
  | { kind: 'renewal'; at: number }
  | { kind: 'reminder'; days: ReminderDays; at: number }
  | { kind: 'end'; at: number }
  | { kind: 'done' };

/** The key of one reminder in `remindersSent`: its days and the period end it is about. */
export const reminderKey = (days: ReminderDays, expiresAt: string) => `${days}d@${expiresAt}`;

/** A plan that is charged again at its period end: paid, renewing, not canceled (a trial and a custom plan are not). */
export function renews(s: Pick<LifecycleState, 'license' | 'autorenewal' | 'canceled'>): boolean {
  return s.autorenewal && !s.canceled && s.license !== 'trial' && s.license !== 'pro';
}

/** When the plan stops working unpaid: the grace end of a renewing plan, otherwise its period end. */
export function endOf(s: Pick<LifecycleState, 'expiresAt' | 'graceEndsAt'>): number {
  const expires = Date.parse(s.expiresAt);
  return s.graceEndsAt ? Math.max(expires, Date.parse(s.graceEndsAt)) : expires;
}

/**
 * The next thing the lifecycle does, and when (ms since the epoch): paid invoices are applied at once; then,
 * earliest first, a scheduled downgrade at its period end, the renewal invoice 7 days before the end, the
 * reminders, and the end itself (cancellation, expiry, or — for a renewing plan — the start of the grace
 * period, then the expiry at its end). `renewalRetryAt` postpones a renewal whose charge could not be made.
 */
export function nextStep(s: LifecycleState, options: { renewalRetryAt?: number } = {}): LifecycleStep {
  if (s.unapplied > 0) return { kind: 'apply', at: 0 };
  if (s.status !== 'active') return { kind: 'done' };
  const expires = Date.parse(s.expiresAt);
  const steps: LifecycleStep[] = [];
  if (s.scheduledChangeAt) steps.push({ kind: 'scheduledChange', at: Date.parse(s.scheduledChangeAt) });
  if (renews(s) && !s.renewal) steps.push({ kind: 'renewal', at: Math.max(expires - daysMs(RENEWAL_LEAD_DAYS), options.renewalRetryAt ?? 0) });
  for (const days of REMINDER_DAYS) {
    if (s.remindersSent.includes(reminderKey(days, s.expiresAt))) continue;
    const at = expires - daysMs(days);
    if (s.license === 'trial') {
      // A reminder that would fall on the trial's first day says nothing new.
      if (at >= Date.parse(s.periodStart) + daysMs(1)) steps.push({ kind: 'reminder', days, at });
    } else if (renews(s) && days !== RENEWAL_LEAD_DAYS && s.renewal && s.renewal.status !== 'paid') {
      steps.push({ kind: 'reminder', days, at });
    }
  }
  steps.push({ kind: 'end', at: endOf(s) });
  return steps.reduce((a, b) => ((b as { at: number }).at < (a as { at: number }).at ? b : a));
}
