import type { Knex } from 'knex';
import { outboundIdempotencyKey } from '../outbound/keys';

export interface CustomDeliveryView {
  messageId: number;
  conversationId: number;
  webhookId: string;
  state: 'pending' | 'sent' | 'failed';
  error: string | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The channel's delivery log (docs/channels/custom.md): the delivery fields the outbound path keeps on
 * each agent message (docs/outbound.md), newest first. There is no separate log table: one row per
 * message, its state, last error and attempt count.
 */
export async function customDeliveries(knex: Knex, workspaceId: number, channelId: number, limit = 50): Promise<CustomDeliveryView[]> {
  const rows = await knex('messages')
    .where({ workspaceId, channelId })
    .whereNotNull('delivery_state')
    .orderBy('id', 'desc')
    .limit(limit)
    .select('id', 'customer_platform_id', 'delivery_state', 'delivery_error', 'delivery_attempts', 'created_at', 'updated_at');
  return rows.map((r) => ({
    messageId: r.id,
    conversationId: r.customerPlatformId,
    webhookId: outboundIdempotencyKey(r.id),
    state: r.deliveryState,
    error: r.deliveryError,
    attempts: r.deliveryAttempts,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}
