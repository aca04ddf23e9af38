import { BaseModel } from './BaseModel';

export type CouponBilling = 'monthly' | 'annual' | 'any';

/** A discount code (global, not per workspace): percent off for a number of charges. */
export class Coupon extends BaseModel {
  static override tableName = 'coupons';
  id!: number;
  code!: string;
  percent!: number;
  charges!: number;
  billing!: CouponBilling;
  maxRedemptions!: number | null;
  isActive!: boolean;
  expiresAt!: Date | null;
  createdAt!: Date;
}
