import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs every webhook (Messenger, Instagram, WhatsApp Cloud) the same way: X-Hub-Signature-256 =
 * `sha256=` + hex HMAC-SHA256 of the raw body with the app secret. Compared in constant time. The one
 * check for every Meta webhook (`/hooks/meta`, the WhatsApp Cloud hooks).
 */
export function validHubSignature(raw: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const hex = header.slice(7);
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(given, expected);
}
