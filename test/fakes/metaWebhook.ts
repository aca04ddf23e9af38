import { createHmac } from 'node:crypto';

/**
 * What the two Meta fakes (WhatsApp Cloud in metaGraph.ts, Messenger/Instagram in metaMessaging.ts) share:
 * Meta signs every webhook with `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the exact body bytes, keyed
 * with the app secret>`.
 */
export function hubSignature(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** Posts a webhook to our api the way Meta does: JSON body, X-Hub-Signature-256 over its exact bytes (or a forged/missing one). */
export async function postSignedWebhook(url: string, payload: unknown, appSecret: string | null, signature?: string): Promise<{ status: number; body: unknown }> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const sig = signature ?? (appSecret ? hubSignature(body, appSecret) : undefined);
  if (sig) headers['x-hub-signature-256'] = sig;
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}
