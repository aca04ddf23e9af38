import type { Knex } from 'knex';
import type { CouponBilling } from '../models/Coupon';
import { calendarDay } from './proration';
import { couponFromRow, findCoupon, normalizeCode, type CouponRow } from './coupons';

/**
 * What the product's operator does with coupons (`npm run coupon`, scripts/coupon.ts): create, list,
 * disable. Coupons are global, so none of this is reachable from the API.
 */

export interface CouponCreateInput {
  code: string;
  percent: number;
  charges: number;
  billing: CouponBilling;
  /** Last day the coupon can be redeemed, YYYY-MM-DD in São Paulo; null: no expiry. */
  expires: string | null;
  maxRedemptions: number | null;
}

export class CouponInputError extends Error {}

const CODE = /^[A-Z0-9][A-Z0-9_-]{2,39}$/;

/**
 * The instant a coupon that is valid through `day` stops working: the start of the next day in São Paulo
 * (UTC−03:00 all year since Brazil dropped daylight saving in 2019).
 */
export function expiryOf(day: string): Date {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return new Date(`${next}T00:00:00-03:00`);
}

/** Every problem with the input at once, in pt-BR; [] when it can be saved. */
export function couponInputProblems(input: CouponCreateInput, now: Date): string[] {
  const problems: string[] = [];
  if (!CODE.test(normalizeCode(input.code))) problems.push('--code: de 3 a 40 letras, números, - ou _.');
  if (!(input.percent > 0 && input.percent <= 100) || Math.round(input.percent * 100) !== input.percent * 100) {
    problems.push('--percent: de 0,01 a 100 (até duas casas decimais).');
  }
  if (!Number.isInteger(input.charges) || input.charges < 1 || input.charges > 120) problems.push('--charges: um número inteiro de 1 a 120.');
  if (input.maxRedemptions !== null && (!Number.isInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
    problems.push('--max-redemptions: um número inteiro a partir de 1.');
  }
  if (input.expires !== null) {
    const valid = /^\d{4}-\d{2}-\d{2}$/.test(input.expires) && new Date(`${input.expires}T00:00:00Z`).toISOString().startsWith(input.expires);
    if (!valid) problems.push('--expires: uma data no formato AAAA-MM-DD.');
    else if (input.expires < calendarDay(now)) problems.push('--expires: a data já passou.');
  }
  return problems;
}

export async function createCoupon(db: Knex, input: CouponCreateInput, now = new Date()): Promise<CouponRow> {
  const problems = couponInputProblems(input, now);
  if (problems.length) throw new CouponInputError(problems.join('\n'));
  const code = normalizeCode(input.code);
  if (await findCoupon(db, code)) throw new CouponInputError(`Já existe um cupom ${code}.`);
  await db('coupons').insert({
    code,
    percent: input.percent,
    charges: input.charges,
    billing: input.billing,
    maxRedemptions: input.maxRedemptions,
    expiresAt: input.expires ? expiryOf(input.expires) : null,
  });
  return (await findCoupon(db, code)) as CouponRow;
}

export interface CouponListing extends CouponRow {
  redemptions: number;
}

export async function listCoupons(db: Knex): Promise<CouponListing[]> {
  const rows = (await db('coupons as c')
    .leftJoin('coupon_redemptions as r', 'r.couponId', 'c.id')
    .groupBy('c.id')
    .orderBy('c.createdAt', 'desc')
    .orderBy('c.id', 'desc')
    .select('c.*', db.raw('count(r.id)::int AS redemptions'))) as (Record<string, unknown> & { redemptions: number })[];
  return rows.map((row) => ({ ...couponFromRow(row), redemptions: row.redemptions }));
}

/** Disabled coupons read as unknown to workspaces; redemptions already made keep their charges. */
export async function disableCoupon(db: Knex, code: string): Promise<CouponRow> {
  const coupon = await findCoupon(db, code);
  if (!coupon) throw new CouponInputError(`Cupom ${normalizeCode(code)} não encontrado.`);
  await db('coupons').where({ id: coupon.id }).update({ isActive: false });
  return { ...coupon, isActive: false };
}
