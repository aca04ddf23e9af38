import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

/** SPEC §3 webhook subscriptions (checked by webhooks_subscriptions_check). */
export const WEBHOOK_EVENTS = ['message:received', 'session:status:changed', 'person:changed', 'csat:received'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** An outbound webhook. secret signs deliveries (HMAC), so it is stored as is and never listed. */
export class Webhook extends BaseModel {
  static override tableName = 'webhooks';
  // subscriptions is a text[] column: not JSON, so it is not listed here.
  static override jsonAttributes: string[] = [];
  id!: number;
  workspaceId!: number;
  url!: string;
  email!: string | null;
  subscriptions!: WebhookEvent[];
  secret!: string;
  failureCount!: number;
  disabledAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    enabled(qb) {
      qb.whereNull('webhooks.disabled_at');
    },
    subscribedTo(qb, event: WebhookEvent) {
      qb.whereRaw('? = ANY (webhooks.subscriptions)', [event]);
    },
  };
}
