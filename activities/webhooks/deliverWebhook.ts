import { guardedFetch, GuardedFetchError } from '../../api/http/guardedFetch';
import { Webhook } from '../../api/models/Webhook';
import { WebhookDelivery } from '../../api/models/WebhookDelivery';
import { signWebhook } from '../../api/webhooks/secret';
import type { ActivityDeps } from '../deps';

export interface WebhookDeliveryOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Tests only: lets deliveries reach an http receiver on loopback. */
  allowLoopbackForTests?: boolean;
  /** Backoff after the first failed attempt, doubled per attempt up to maxDelayMs. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** Attempts before the delivery is marked failed. */
  maxAttempts: number;
  /** How long a delivery waits past an older pending delivery's next attempt before looking again. */
  orderWaitMs: number;
  /** An older pending delivery whose next attempt is this far in the past is stuck: it no longer holds others back. */
  staleAfterMs: number;
}

/** ~15 attempts over about a day and a half: 30 s, 1 min, 2 min … capped at 6 h. */
export const DEFAULT_WEBHOOK_DELIVERY_OPTIONS: WebhookDeliveryOptions = {
  timeoutMs: 15_000,
  maxBytes: 64 * 1024,
  initialDelayMs: 30_000,
  maxDelayMs: 6 * 60 * 60 * 1000,
  maxAttempts: 15,
  orderWaitMs: 2_000,
  staleAfterMs: 5 * 60 * 1000,
};

export type DeliverWebhookResult = { outcome: 'done'; status: 'delivered' | 'failed' | 'disabled' | 'missing' } | { outcome: 'retry' | 'wait'; delayMs: number };

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function backoffMs(attempts: number, o: Pick<WebhookDeliveryOptions, 'initialDelayMs' | 'maxDelayMs'>): number {
  return Math.min(o.maxDelayMs, o.initialDelayMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * One attempt of one delivery: POST the stored payload, signed per Standard Webhooks, through the guarded
 * client; record the outcome on the row. 2xx delivered; 410 disables the endpoint; anything else (3xx
 * included: redirects are not followed) is a failure retried with backoff, honouring Retry-After. The
 * webhook-id is the delivery id, the same on every attempt, so a receiver can drop repeats.
 */
export const deliverWebhook =
  (deps: ActivityDeps, options: Partial<WebhookDeliveryOptions> = {}) =>
  async ({ deliveryId }: { deliveryId: number }): Promise<DeliverWebhookResult> => {
    const o = { ...DEFAULT_WEBHOOK_DELIVERY_OPTIONS, ...options };
    const delivery = await WebhookDelivery.query(deps.knex).findById(deliveryId);
    if (!delivery) return { outcome: 'done', status: 'missing' };
    if (delivery.status !== 'pending') return { outcome: 'done', status: delivery.status };
    const webhook = await Webhook.query(deps.knex).findById(delivery.webhookId);
    if (!webhook || webhook.disabledAt) {
      await finish(deps, deliveryId, { status: 'failed', lastError: 'Webhook desativado.' });
      return { outcome: 'done', status: 'disabled' };
    }

    // Per endpoint, deliveries go out in id order: while an older one is still being tried (and not
    // stuck), this one waits until just after that one's next attempt.
    const now = Date.now();
    const older = await WebhookDelivery.query(deps.knex)
      .modify('pending')
      .where('webhook_id', delivery.webhookId)
      .where('id', '<', deliveryId)
      .where('next_attempt_at', '>', new Date(now - o.staleAfterMs))
      .orderBy('id')
      .first();
    if (older) {
      const until = Math.max(now, older.nextAttemptAt?.getTime() ?? now);
      return { outcome: 'wait', delayMs: until - now + o.orderWaitMs };
    }

    const attempts = delivery.attempts + 1;
    const body = JSON.stringify(delivery.payload);
    const msgId = `msg_${deliveryId}`;
    const timestamp = Math.floor(now / 1000);
    let statusCode: number | null = null;
    let error: string | null = null;
    let retryAfter: number | null = null;
    try {
      const res = await guardedFetch(
        webhook.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Balcao-Webhooks/1',
            'webhook-id': msgId,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(webhook.secret, msgId, timestamp, body),
          },
          body,
        },
        { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, allowLoopbackForTests: o.allowLoopbackForTests },
      );
      statusCode = res.status;
      retryAfter = retryAfterMs(res.headers['retry-after']);
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      if (!(err instanceof GuardedFetchError)) throw err;
      error = err.message;
    }

    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      await finish(deps, deliveryId, { status: 'delivered', attempts, lastStatusCode: statusCode, lastError: null, deliveredAt: new Date() });
      await Webhook.query(deps.knex).patch({ failureCount: 0 } as Partial<Webhook>).where({ id: webhook.id });
      return { outcome: 'done', status: 'delivered' };
    }
    if (statusCode === 410) {
      // The receiver says the endpoint is gone for good: stop sending anything to it until it is saved again.
      await Webhook.query(deps.knex).patch({ disabledAt: new Date(), updatedAt: new Date() } as Partial<Webhook>).where({ id: webhook.id }).whereNull('disabled_at');
      await finish(deps, deliveryId, { status: 'failed', attempts, lastStatusCode: 410, lastError: 'Endpoint respondeu 410: webhook desativado.' });
      return { outcome: 'done', status: 'disabled' };
    }
    await Webhook.query(deps.knex).increment('failure_count', 1).where({ id: webhook.id });
    if (attempts >= o.maxAttempts) {
      await finish(deps, deliveryId, { status: 'failed', attempts, lastStatusCode: statusCode, lastError: error });
      return { outcome: 'done', status: 'failed' };
    }
    const delayMs = Math.max(backoffMs(attempts, o), Math.min(retryAfter ?? 0, o.maxDelayMs));
    await WebhookDelivery.query(deps.knex)
      .patch({ attempts, lastStatusCode: statusCode, lastError: error, nextAttemptAt: new Date(Date.now() + delayMs) } as Partial<WebhookDelivery>)
      .where({ id: deliveryId, status: 'pending' });
    return { outcome: 'retry', delayMs };
  };

async function finish(deps: ActivityDeps, id: number, patch: Partial<WebhookDelivery>): Promise<void> {
  await WebhookDelivery.query(deps.knex)
    .patch({ ...patch, nextAttemptAt: null } as Partial<WebhookDelivery>)
    .where({ id, status: 'pending' });
}
