import { z } from 'zod';
import { storableText, webhookText as text } from '../webhookText';
import type { MessagingEvent, MetaPayload } from './webhook';

/**
 * The parts of a Messenger / Instagram messaging webhook the product reads, checked at the edge
 * (docs/channels/meta.md, "Malformed events"). Meta sends one batch for many events and sends a batch
 * again when we do not answer 200, for hours: an event that is not what the docs describe is left out of
 * the batch (and logged), the others are stored and handled, and the batch is answered 200. Strings lose
 * NUL characters and lone surrogates (webhookText.ts).
 */
const metaId = text.pipe(z.string().min(1).max(128));
/** Meta's millisecond timestamps, bounded to dates PostgreSQL and JavaScript both take. */
const epochMs = z.number().int().nonnegative().max(253_402_300_799_999);

const AttachmentSchema = z.object({
  type: text.optional(),
  payload: z
    .object({
      url: text.optional(),
      sticker_id: z.number().int().optional(),
      title: text.optional(),
    })
    .nullable()
    .optional(),
  title: text.optional(),
  url: text.optional(),
});

const MessageSchema = z.object({
  mid: metaId.optional(),
  text: text.optional(),
  is_echo: z.boolean().optional(),
  app_id: z.union([z.number(), text]).optional(),
  is_deleted: z.boolean().optional(),
  attachments: z.array(AttachmentSchema).max(100).optional(),
  reply_to: z.object({ mid: metaId.optional(), story: z.object({ url: text.optional(), id: text.optional() }).optional() }).optional(),
});

export const MessagingEventSchema = z.object({
  sender: z.object({ id: metaId }).optional(),
  recipient: z.object({ id: metaId }).optional(),
  timestamp: epochMs.optional(),
  message: MessageSchema.optional(),
  delivery: z.object({ mids: z.array(metaId).optional(), watermark: epochMs.optional() }).optional(),
  read: z.object({ watermark: epochMs.optional(), mid: metaId.optional() }).optional(),
  postback: z.object({ mid: metaId.optional(), title: text.optional(), payload: text.optional() }).optional(),
});

const entryId = z.union([metaId, z.number().int().nonnegative()]).transform(String);

/** What is left of a verified batch once its malformed entries and events are taken out. */
export interface CheckedBatch {
  payload: MetaPayload;
  /** Where the left-out parts were and why (for the log). */
  skipped: string[];
}

/**
 * The batch as the product handles it: `object` and `entry` must be there (else `undefined`: a 400), each
 * entry needs an id and a `messaging` list (entries of other fields, e.g. `changes`, are left out), each
 * event must match MessagingEventSchema. Idempotent: a checked batch checks to itself.
 */
export function checkMetaBatch(json: unknown): CheckedBatch | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const body = json as Record<string, unknown>;
  if (!Array.isArray(body.entry)) return undefined;
  const skipped: string[] = [];
  const entry: NonNullable<MetaPayload['entry']> = [];
  for (const [i, raw] of body.entry.entries()) {
    const e = raw as Record<string, unknown> | null;
    const id = entryId.safeParse(e && typeof e === 'object' ? e.id : undefined);
    if (!id.success || !Array.isArray(e?.messaging)) {
      if (!(e && typeof e === 'object' && 'changes' in e && id.success)) skipped.push(`entry.${i}`);
      continue;
    }
    const messaging: MessagingEvent[] = [];
    for (const [j, event] of (e.messaging as unknown[]).entries()) {
      const parsed = MessagingEventSchema.safeParse(event);
      if (parsed.success) messaging.push(parsed.data);
      else skipped.push(`entry.${i}.messaging.${j}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
    }
    entry.push({ id: id.data, ...(typeof e.time === 'number' && Number.isFinite(e.time) ? { time: e.time } : {}), messaging });
  }
  return { payload: { object: typeof body.object === 'string' ? storableText(body.object) : '', entry }, skipped };
}
