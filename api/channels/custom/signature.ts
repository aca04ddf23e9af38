import { timingSafeEqual } from 'node:crypto';
import { signWebhook } from '../../webhooks/secret';

/** Standard Webhooks' tolerance: a timestamp further than this from our clock is refused (replays). */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export interface StandardWebhookHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'stale' | 'signature' };

/**
 * Standard Webhooks verification of an inbound request: `webhook-signature` holds one or more
 * space-separated `v1,<base64>` entries; one must equal HMAC-SHA256(secret bytes, "id.timestamp.body")
 * (computed by the same signWebhook our own deliveries use), compared in constant time. The timestamp
 * (seconds) must be within 5 minutes of now, so a captured request cannot be replayed later.
 */
export function verifyStandardWebhook(secret: string, headers: StandardWebhookHeaders, raw: Buffer, nowMs = Date.now()): SignatureCheck {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'stale' };
  const ts = Number(timestamp);
  if (Math.abs(nowMs / 1000 - ts) > TIMESTAMP_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signWebhook(secret, id, ts, raw.toString('utf8')).slice(3), 'base64');
  for (const part of signature.split(' ')) {
    const [version, sig] = part.split(',', 2);
    if (version !== 'v1' || !sig) continue;
    const given = Buffer.from(sig, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'signature' };
}
