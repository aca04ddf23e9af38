import type { License } from '../models/Subscription';

/**
 * The price list of SPEC §1 and §9 (docs/billing.md), in integer centavos. Pure data: the quote, the
 * limits and the screens read it from here and nowhere else.
 */

/** The plans a workspace can buy itself; 'trial' is given at signup, 'pro' is the custom plan ('Plano personalizado', via contact). */
export const PURCHASABLE_LICENSES = ['basic', 'business', 'enterprise'] as const;
export type PurchasableLicense = (typeof PURCHASABLE_LICENSES)[number];

/** The units of a subscription, named as the subscribe call names them (SPEC §7). */
export interface PlanUnits {
  agents: number;
  whatsapp: number;
  instagram: number;
  campaign: number;
}

export interface Plan {
  license: PurchasableLicense | 'trial';
  name: string;
  /** Centavos per month. */
  monthlyPrice: number;
  /** What the plan's price already includes. */
  included: PlanUnits;
}

/**
 * SPEC §1: Basic 149 (1 agent, 1 line, 0 campaigns), Business 449 (5, 1, 0), Enterprise 799 (10, 1, 1); the
 * trial is priced like Business. SPEC names no Instagram units for any plan: none is included and an
 * Instagram unit costs nothing, so the units asked are simply recorded.
 */
export const PLANS: Readonly<Record<PurchasableLicense | 'trial', Plan>> = {
  basic: { license: 'basic', name: 'Basic', monthlyPrice: 149_00, included: { agents: 1, whatsapp: 1, instagram: 0, campaign: 0 } },
  business: { license: 'business', name: 'Business', monthlyPrice: 449_00, included: { agents: 5, whatsapp: 1, instagram: 0, campaign: 0 } },
  enterprise: { license: 'enterprise', name: 'Enterprise', monthlyPrice: 799_00, included: { agents: 10, whatsapp: 1, instagram: 0, campaign: 1 } },
  trial: { license: 'trial', name: 'Avaliação', monthlyPrice: 449_00, included: { agents: 5, whatsapp: 1, instagram: 0, campaign: 0 } },
};

/** SPEC §1 add-ons, centavos per unit per month beyond what the plan includes. Instagram has no price. */
export const EXTRA_PRICES: Readonly<PlanUnits> = { agents: 49_00, whatsapp: 99_00, instagram: 0, campaign: 149_00 };

/** SPEC §9: annual = 12 months, at 12 times the monthly price (SPEC gives no annual discount). */
export const ANNUAL_MONTHS = 12;
export type BillingMonths = 1 | typeof ANNUAL_MONTHS;

/** The most of any unit one subscription may ask for: a typo guard, not a product limit. */
export const MAX_UNITS = 999;

export function isPurchasable(license: string): license is PurchasableLicense {
  return (PURCHASABLE_LICENSES as readonly string[]).includes(license);
}

/** The priced plan of a license; undefined for 'pro' (custom plans are priced by contract). */
export function planOf(license: License | string): Plan | undefined {
  return license === 'trial' || isPurchasable(license) ? PLANS[license] : undefined;
}

export const UNIT_KEYS = ['agents', 'whatsapp', 'instagram', 'campaign'] as const satisfies readonly (keyof PlanUnits)[];

/** Units beyond what the plan includes (never negative). */
export function extrasOf(plan: Plan, units: PlanUnits): PlanUnits {
  const extra = (k: keyof PlanUnits) => Math.max(0, units[k] - plan.included[k]);
  return { agents: extra('agents'), whatsapp: extra('whatsapp'), instagram: extra('instagram'), campaign: extra('campaign') };
}

/** The list price of one period (1 or 12 months) of a plan with these totals, in centavos, before any coupon. */
export function periodPrice(plan: Plan, units: PlanUnits, months: BillingMonths): number {
  const extras = extrasOf(plan, units);
  const monthly = plan.monthlyPrice + UNIT_KEYS.reduce((sum, k) => sum + extras[k] * EXTRA_PRICES[k], 0);
  return monthly * months;
}

/** The units a stored subscription row holds, in the subscribe call's names. */
export function unitsOfSubscription(sub: { agents: number; numbers: number; instagramUnits: number; campaignUnits: number }): PlanUnits {
  return { agents: sub.agents, whatsapp: sub.numbers, instagram: sub.instagramUnits, campaign: sub.campaignUnits };
}
