import { guardedFetch, GuardedFetchError } from '../../http/guardedFetch';
import { signWebhook } from '../../webhooks/secret';
import { ChannelSendError } from '../sendErrors';
import { customLoopbackAllowed } from './testing';

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export const CUSTOM_TIMEOUT_MS = 15_000;
export const CUSTOM_MAX_RESPONSE_BYTES = 64 * 1024;

/** The event types we POST to the company's endpoint (docs/channels/custom.md). */
export type CustomEventType = 'message.created';

/**
 * POSTs one event to the company's endpoint, signed per Standard Webhooks with the channel's secret
 * (the signWebhook our webhook outbox uses), through the guarded client: https only, public addresses
 * only, no redirects, 15 s timeout, 64 KB answer cap. `webhookId` is the same on every attempt (the
 * message's idempotency key), so the receiver can drop a repeat.
 *
 * 2xx: done. 408, 425, 429, 5xx, timeouts and network errors: transient (retried with backoff by the
 * delivery workflow, Retry-After honoured). Any other answer (3xx included, 4xx): permanent, shown on the
 * message. An endpoint refused by the SSRF guard is permanent too.
 */
export async function postCustomEvent(endpoint: string, secret: string, webhookId: string, event: { type: CustomEventType; data: unknown }): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ type: event.type, timestamp: new Date(timestamp * 1000).toISOString(), data: event.data });
  let res;
  try {
    res = await guardedFetch(
      endpoint,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Balcao-Custom-Channel/1',
          'webhook-id': webhookId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, webhookId, timestamp, body),
        },
        body,
      },
      { timeoutMs: CUSTOM_TIMEOUT_MS, maxBytes: CUSTOM_MAX_RESPONSE_BYTES, allowLoopbackForTests: customLoopbackAllowed() },
    );
  } catch (err) {
    if (err instanceof GuardedFetchError) {
      const permanent = err.code === 'invalid_url' || err.code === 'scheme' || err.code === 'blocked_address';
      throw new ChannelSendError(permanent ? `Endpoint do canal recusado: ${err.message}` : `O endpoint do canal não respondeu: ${err.message}`, {
        transient: !permanent,
        code: err.code,
      });
    }
    throw new ChannelSendError('O endpoint do canal não respondeu.', { transient: true, code: 'network' });
  }
  if (res.status >= 200 && res.status < 300) return;
  const transient = res.status === 408 || res.status === 425 || res.status === 429 || res.status >= 500;
  throw new ChannelSendError(`O endpoint do canal respondeu HTTP ${res.status}.`, {
    transient,
    code: res.status,
    retryAfterMs: retryAfterMs(res.headers['retry-after']),
  });
}
