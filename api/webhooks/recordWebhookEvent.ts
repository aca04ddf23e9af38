import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { WebhookEvent } from '../models/Webhook';
import { subscribedWebhooks } from './queries';

/** What the code that causes an event needs: the database to record it, Temporal (when present) to start it. */
export type EmitDeps = Pick<AppDeps, 'knex' | 'logger'> & Partial<Pick<AppDeps, 'temporal'>>;

/** The JSON body every delivery posts (docs/webhooks.md). */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  workspaceId: number;
  data: Record<string, unknown>;
}

/**
 * The outbox write (docs/webhooks.md "Delivery"): inside the transaction of the change that causes the
 * event, one `pending` delivery row per enabled webhook of the workspace subscribed to `event`. The rows
 * commit or roll back with the change, so no event is lost between the two; their workflows are started
 * after commit by `dispatchDeliveries`, and by the sweep for any a crash left unstarted. `data` is only built
 * when somebody subscribes, from the transaction's own view of the rows. Returns the new ids, in order.
 */
export async function recordWebhookEvent(
  trx: Knex.Transaction,
  workspaceId: number,
  event: WebhookEvent,
  data: (db: Knex.Transaction) => Promise<Record<string, unknown> | null>,
  /** The subscribed webhooks' ids when the caller read them already in the same transaction (receiveInbound). */
  subscribed?: readonly number[],
): Promise<number[]> {
  const hooks = subscribed ? subscribed.map((id) => ({ id })) : await subscribedWebhooks(trx, workspaceId, event);
  if (!hooks.length) return [];
  // A call opened in this transaction is numbered at commit (migration 20261123160000); the payload
  // carries its protocol, so number it now.
  await trx.raw('SET CONSTRAINTS calls_protocol_at_commit IMMEDIATE');
  const body = await data(trx);
  if (!body) return [];
  const now = new Date();
  const payload: WebhookPayload = { type: event, timestamp: now.toISOString(), workspaceId, data: body };
  const rows: { id: string | number }[] = await trx('webhook_deliveries')
    .insert(hooks.map((h) => ({ workspaceId, webhookId: h.id, event, payload: JSON.stringify(payload), status: 'pending', nextAttemptAt: now })))
    .returning('id');
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}
