import { z } from 'zod';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A provider's string (a WhatsApp Cloud, Messenger/Instagram or Telegram webhook) as it can be stored:
 * without NUL characters and lone surrogates. PostgreSQL text cannot hold a NUL, and jsonb (message content,
 * stored Meta batches) refuses both; neither means anything in a chat message.
 */
export function storableText(s: string): string {
  return s.replaceAll('\u0000', '').replace(LONE_SURROGATE, '');
}

/** The zod string of the webhook schemas (webhookSchema.ts, updateSchema.ts): storableText applied. */
export const webhookText = z.string().transform(storableText);
