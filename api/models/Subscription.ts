import { BaseModel } from './BaseModel';

export type License = 'basic' | 'trial' | 'business' | 'enterprise' | 'pro';
export type SubscriptionStatus = 'active' | 'expired' | 'canceled';

export class Subscription extends BaseModel {
  static override tableName = 'subscriptions';
  id!: number;
  workspaceId!: number;
  license!: License;
  status!: SubscriptionStatus;
  agents!: number;
  numbers!: number;
  instagramUnits!: number;
  campaignUnits!: number;
  months!: number;
  /** Centavos per period (months). */
  total!: number;
  autorenewal!: boolean;
  expiresAt!: Date;
  createdAt!: Date;
  updatedAt!: Date;
}
