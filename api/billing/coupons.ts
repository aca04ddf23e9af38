import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { CouponBilling } from '../models/Coupon';
import { ANNUAL_MONTHS } from './plans';
import { QUOTE_MESSAGES, type QuoteCoupon } from './pricing';

/**
 * Coupons (docs/billing.md "Coupons"): a percent off the monthly or annual price (or either) for a number
 * of charges, once per workspace, until an expiry and up to a number of redemptions. The table is global
 * (made by the product's operator with `npm run coupon`); what a workspace used is coupon_redemptions.
 */

type Db = Knex | Knex.Transaction;

export const COUPON_MESSAGES = {
  invalid: 'Cupom inválido.',
  expired: 'Este cupom expirou.',
  exhausted: 'Este cupom atingiu o limite de usos.',
  used: 'Este cupom já foi usado neste workspace.',
  billing: QUOTE_MESSAGES.couponBilling,
} as const;

export interface CouponRow {
  id: number;
  code: string;
  percent: number;
  charges: number;
  billing: CouponBilling;
  maxRedemptions: number | null;
  isActive: boolean;
  expiresAt: Date | null;
  createdAt: Date;
}

export interface VerifiedCoupon extends QuoteCoupon {
  id: number;
  charges: number;
}

/** What verification needs to know besides the coupon; all counted by the caller. */
export interface CouponContext {
  /** Redemptions of this coupon by every workspace. */
  redemptions: number;
  /** Whether this workspace redeemed it already. */
  usedHere: boolean;
  /** The billing chosen, when known (1 or 12). */
  months?: number;
  now: Date;
}

/** Why a coupon cannot be used, or null. Pure: the rules in one place, the order users see them. */
export function couponRefusal(coupon: CouponRow | undefined, ctx: CouponContext): string | null {
  if (!coupon || !coupon.isActive) return COUPON_MESSAGES.invalid;
  if (coupon.expiresAt && coupon.expiresAt.getTime() <= ctx.now.getTime()) return COUPON_MESSAGES.expired;
  if (ctx.usedHere) return COUPON_MESSAGES.used;
  if (coupon.maxRedemptions !== null && ctx.redemptions >= coupon.maxRedemptions) return COUPON_MESSAGES.exhausted;
  if (coupon.billing !== 'any' && (ctx.months === 1 || ctx.months === ANNUAL_MONTHS)) {
    const chosen: CouponBilling = ctx.months === ANNUAL_MONTHS ? 'annual' : 'monthly';
    if (coupon.billing !== chosen) return COUPON_MESSAGES.billing[coupon.billing];
  }
  return null;
}

/** Codes are kept upper-case and compared case-insensitively (coupons_code_unique is on lower(code)). */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** A coupons row as read by knex (camelCase; percent arrives as a numeric string). */
export function couponFromRow(row: Record<string, unknown>): CouponRow {
  return {
    id: Number(row.id),
    code: String(row.code),
    percent: Number(row.percent),
    charges: Number(row.charges),
    billing: row.billing as CouponBilling,
    maxRedemptions: row.maxRedemptions === null || row.maxRedemptions === undefined ? null : Number(row.maxRedemptions),
    isActive: Boolean(row.isActive),
    expiresAt: row.expiresAt ? new Date(row.expiresAt as string) : null,
    createdAt: new Date(row.createdAt as string),
  };
}

export async function findCoupon(db: Db, code: string, lock = false): Promise<CouponRow | undefined> {
  const q = db('coupons').whereRaw('lower(code) = lower(?)', [code.trim()]).first();
  if (lock) q.forUpdate();
  const row = (await q) as Record<string, unknown> | undefined;
  return row ? couponFromRow(row) : undefined;
}

async function contextOf(db: Db, coupon: CouponRow | undefined, workspaceId: number): Promise<Omit<CouponContext, 'months' | 'now'>> {
  if (!coupon) return { redemptions: 0, usedHere: false };
  const [{ n, here }] = (await db('coupon_redemptions')
    .where({ couponId: coupon.id })
    .select(db.raw('count(*)::int AS n'), db.raw('count(*) FILTER (WHERE workspace_id = ?)::int AS here', [workspaceId]))) as { n: number; here: number }[];
  return { redemptions: n, usedHere: here > 0 };
}

function verified(coupon: CouponRow): VerifiedCoupon {
  return { id: coupon.id, code: coupon.code, percent: coupon.percent, charges: coupon.charges, billing: coupon.billing };
}

/**
 * GET /payment/cupom/verify: the coupon this workspace may use, or a ValidationError on `code` in pt-BR
 * (unknown and disabled coupons read alike). `months` (1 or 12), when given, checks the billing too.
 */
export async function verifyCoupon(db: Db, input: { workspaceId: number; code: string; months?: number; now?: Date }): Promise<VerifiedCoupon> {
  const coupon = await findCoupon(db, input.code);
  const refusal = couponRefusal(coupon, { ...(await contextOf(db, coupon, input.workspaceId)), months: input.months, now: input.now ?? new Date() });
  if (refusal || !coupon) throw errors.field('code', refusal ?? COUPON_MESSAGES.invalid);
  return verified(coupon);
}

/**
 * Uses the coupon for this workspace's first discounted charge, inside the subscribe transaction: the
 * coupon row is locked so two workspaces cannot both take the last redemption, and the redemption keeps
 * charges − 1 charges for the renewals (takeCouponCharge).
 */
export async function redeemCoupon(
  trx: Knex.Transaction,
  input: { workspaceId: number; subscriptionId: number | null; code: string; months: number; now?: Date },
): Promise<VerifiedCoupon & { redemptionId: number }> {
  const coupon = await findCoupon(trx, input.code, true);
  const refusal = couponRefusal(coupon, { ...(await contextOf(trx, coupon, input.workspaceId)), months: input.months, now: input.now ?? new Date() });
  if (refusal || !coupon) throw errors.field('coupon', refusal ?? COUPON_MESSAGES.invalid);
  const [row] = await trx('coupon_redemptions')
    .insert({ couponId: coupon.id, workspaceId: input.workspaceId, subscriptionId: input.subscriptionId, chargesLeft: coupon.charges - 1 })
    .returning('id');
  return { ...verified(coupon), redemptionId: Number(row.id) };
}

/**
 * The coupon discount of a renewal charge of this subscription, if its redemption still has charges left
 * (one is spent). Not limited by the coupon's expiry: a redeemed coupon runs its charges out.
 */
export async function takeCouponCharge(trx: Knex.Transaction, input: { workspaceId: number; subscriptionId: number; months: number }): Promise<VerifiedCoupon | null> {
  const row = (await trx('coupon_redemptions as r')
    .join('coupons as c', 'c.id', 'r.couponId')
    .where({ 'r.workspaceId': input.workspaceId, 'r.subscriptionId': input.subscriptionId })
    .where('r.chargesLeft', '>', 0)
    .orderBy('r.id', 'desc')
    .forUpdate('r')
    .first('r.id as redemptionId', 'c.*')) as (Record<string, unknown> & { redemptionId: number }) | undefined;
  if (!row) return null;
  const coupon = couponFromRow(row);
  if (coupon.billing !== 'any' && coupon.billing !== (input.months === ANNUAL_MONTHS ? 'annual' : 'monthly')) return null;
  await trx('coupon_redemptions').where({ id: row.redemptionId }).decrement('chargesLeft', 1);
  return verified(coupon);
}
