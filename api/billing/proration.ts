/**
 * Proration by whole days (docs/billing.md "Proration"), after Stripe's: the credit for unused time is
 * what was paid for the current period times the share of it still ahead, and the charge for the new plan
 * is its price for that same share. Stripe prorates to the second; Pix and Boleto are paid days later,
 * so we count calendar days in America/Sao_Paulo. Pure functions over integer centavos.
 */

/** A calendar day `YYYY-MM-DD`, or an instant (Date or ISO string with a time) read in America/Sao_Paulo. */
export type DateLike = Date | string;

export const BILLING_TIME_ZONE = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: BILLING_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day (YYYY-MM-DD) of `at` in São Paulo; a bare YYYY-MM-DD is already one. */
export function calendarDay(at: DateLike): string {
  if (typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at)) return at;
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${String(at)}`);
  return dayFormat.format(date);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: DateLike, to: DateLike): number {
  const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);
  return Math.round((utc(calendarDay(to)) - utc(calendarDay(from))) / DAY_MS);
}

/**
 * amount × part ÷ whole in centavos, rounded half up (Stripe rounds each proration line to the nearest
 * cent). Integer arithmetic only, so no float ever reaches money.
 */
export function prorate(amount: number, part: number, whole: number): number {
  if (!Number.isInteger(amount) || !Number.isInteger(part) || !Number.isInteger(whole) || whole <= 0) {
    throw new RangeError(`prorate needs integers and a positive whole (${amount}, ${part}, ${whole})`);
  }
  const share = Math.min(Math.max(part, 0), whole);
  return Math.floor((2 * amount * share + whole) / (2 * whole));
}

export interface PeriodWindow {
  periodStart: DateLike;
  periodEnd: DateLike;
  today: DateLike;
}

export interface PeriodDays {
  /** Days the paid period lasts (periodStart to periodEnd). */
  periodDays: number;
  /**
   * Days from today to periodEnd, today included: a change made on day 10 of a 30-day period that began
   * on day 0 leaves 20 days. Clamped to 0..periodDays.
   */
  remainingDays: number;
}

export function periodDays({ periodStart, periodEnd, today }: PeriodWindow): PeriodDays {
  const total = Math.max(daysBetween(periodStart, periodEnd), 1);
  const remaining = Math.min(Math.max(daysBetween(today, periodEnd), 0), total);
  return { periodDays: total, remainingDays: remaining };
}

/** Credit of unused time: paid amount × remaining days ÷ period days, rounded half up. */
export function unusedCredit(window: PeriodWindow & { paidAmount: number }): number {
  const { periodDays: whole, remainingDays } = periodDays(window);
  return prorate(window.paidAmount, remainingDays, whole);
}

/** A percent off an amount (percent may have two decimals, as coupons.percent does), rounded half up. */
export function percentOf(amount: number, percent: number): number {
  const hundredths = Math.round(percent * 100);
  return prorate(amount, hundredths, 100_00);
}
