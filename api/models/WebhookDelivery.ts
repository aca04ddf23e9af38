import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { newestFirst } from './modifiers';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One event sent to one webhook; its workflow id is webhook:{id}. */
export class WebhookDelivery extends BaseModel {
  static override tableName = 'webhook_deliveries';
  static override jsonAttributes = ['payload'];
  id!: number;
  workspaceId!: number;
  webhookId!: number;
  event!: string;
  payload!: Record<string, unknown>;
  status!: WebhookDeliveryStatus;
  attempts!: number;
  lastStatusCode!: number | null;
  lastError!: string | null;
  nextAttemptAt!: Date | null;
  deliveredAt!: Date | null;
  createdAt!: Date;

  static override modifiers: Modifiers = {
    pending(qb) {
      qb.where('webhook_deliveries.status', 'pending');
    },
    newestFirst: newestFirst('webhook_deliveries'),
  };
}
