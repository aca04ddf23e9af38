import type { Webhook, WebhookEvent } from '../models/Webhook';
import type { WebhookDelivery } from '../models/WebhookDelivery';
import { WEBHOOK_EVENT_NAMES } from './schema';
import { webhookMessageId } from './messageId';

/** GET /webhook: SPEC's {webhook, email, subscriptions} plus what the settings screen shows. */
export function presentWebhook(w: Webhook | undefined) {
  const subs = Object.fromEntries(WEBHOOK_EVENT_NAMES.map((e) => [e, !!w?.subscriptions.includes(e as WebhookEvent)]));
  if (!w) return { webhook: '', email: '', subscriptions: subs, secret: null, disabledAt: null };
  return {
    id: w.id,
    webhook: w.url,
    email: w.email ?? '',
    subscriptions: subs,
    // The signing secret is shown to the workspace's managers (they paste it into their receiver).
    secret: w.secret,
    disabledAt: w.disabledAt,
    failureCount: w.failureCount,
  };
}

export function presentDelivery(d: WebhookDelivery) {
  return {
    id: Number(d.id),
    /** The webhook-id header the receiver saw (docs/webhooks.md). */
    webhookId: webhookMessageId(d.id),
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt,
    deliveredAt: d.deliveredAt,
    createdAt: d.createdAt,
  };
}
