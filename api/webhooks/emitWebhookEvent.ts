import type { AppDeps } from '../deps';
import type { WebhookEvent } from '../models/Webhook';
import { subscribedWebhooks } from './queries';
import { startDelivery } from './startDelivery';

export type EmitDeps = Pick<AppDeps, 'knex' | 'logger'> & Partial<Pick<AppDeps, 'temporal'>>;

/** The JSON body every delivery posts (docs/webhooks.md). */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  workspaceId: number;
  data: Record<string, unknown>;
}

/**
 * Called after the event's own transaction committed: one delivery row per enabled webhook of the
 * workspace that subscribes to `event`, then one `webhook:{deliveryId}` workflow each, started in id order.
 * `data` is only built when somebody subscribes. Never throws: the change that caused the event has
 * already happened, and a failed emission is logged instead of failing the caller's request.
 */
export async function emitWebhookEvent(deps: EmitDeps, workspaceId: number, event: WebhookEvent, data: () => Promise<Record<string, unknown> | null>): Promise<void> {
  try {
    const hooks = await subscribedWebhooks(deps.knex, workspaceId, event);
    if (!hooks.length) return;
    const body = await data();
    if (!body) return;
    const payload: WebhookPayload = { type: event, timestamp: new Date().toISOString(), workspaceId, data: body };
    const now = new Date();
    const rows: { id: string | number }[] = await deps.knex('webhook_deliveries')
      .insert(hooks.map((h) => ({ workspaceId, webhookId: h.id, event, payload: JSON.stringify(payload), status: 'pending', nextAttemptAt: now })))
      .returning('id');
    for (const id of rows.map((r) => Number(r.id)).sort((a, b) => a - b)) await startDelivery(deps, id);
  } catch (err) {
    deps.logger.error({ err, workspaceId, event }, 'webhook event not recorded');
  }
}
