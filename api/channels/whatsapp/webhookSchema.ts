import { z } from 'zod';
import { webhookText as text } from '../webhookText';

/**
 * The parts of a WhatsApp Cloud API webhook (Meta's "messages" webhook reference) the handler reads, checked
 * at the edge (docs/channels/whatsapp.md "Malformed bodies"). Two levels:
 * - the envelope (`entry[].changes[]`, and for a `messages` change the arrays `messages`, `statuses`,
 *   `contacts` of its value): a body that is not this shape is not from Meta, and answers 400;
 * - each message, status and profile on its own: one that is not what the reference describes is skipped
 *   (logged) and the rest of the body is processed, so Meta, which redelivers any non-2xx answer for days,
 *   does not redeliver the good ones forever because of one bad item.
 * Fields are optional where Meta omits them; what we do not read is dropped. Strings lose NUL characters and
 * lone surrogates (webhookText.ts).
 */
/** Ids are stored in `external_id` columns of 255 characters. */
const id = text.pipe(z.string().min(1).max(255));

const MediaSchema = z.object({ id, mime_type: text.optional(), caption: text.optional(), filename: text.optional() });

const ContactCardSchema = z.object({
  name: z.object({ formatted_name: text.optional(), first_name: text.optional(), last_name: text.optional() }).optional(),
  phones: z.array(z.object({ phone: text.optional(), wa_id: text.optional(), type: text.optional() })).max(20).optional(),
  emails: z.array(z.object({ email: text.optional(), type: text.optional() })).max(20).optional(),
  org: z.object({ company: text.optional(), department: text.optional(), title: text.optional() }).optional(),
});

const coordinate = z.number().finite();

export const CloudMessageSchema = z.object({
  from: id,
  id,
  timestamp: text.optional(),
  type: text,
  text: z.object({ body: text }).optional(),
  image: MediaSchema.optional(),
  audio: MediaSchema.optional(),
  video: MediaSchema.optional(),
  document: MediaSchema.optional(),
  sticker: MediaSchema.optional(),
  location: z.object({ latitude: coordinate.min(-90).max(90), longitude: coordinate.min(-180).max(180), name: text.optional(), address: text.optional() }).optional(),
  /** `emoji` is omitted when the customer removes the reaction. */
  reaction: z.object({ message_id: id, emoji: text.optional() }).optional(),
  /** A quick-reply button of a template. */
  button: z.object({ payload: text.optional(), text }).optional(),
  interactive: z
    .object({
      type: text,
      button_reply: z.object({ id: text, title: text }).optional(),
      list_reply: z.object({ id: text, title: text, description: text.optional() }).optional(),
    })
    .optional(),
  contacts: z.array(ContactCardSchema).max(50).optional(),
  context: z.object({ from: text.optional(), id: text.optional() }).optional(),
});
export type CloudMessage = z.output<typeof CloudMessageSchema>;
export type CloudContactCard = z.output<typeof ContactCardSchema>;

export const CloudStatusSchema = z.object({
  id,
  status: text,
  recipient_id: text.optional(),
  errors: z
    .array(z.object({ code: z.number().int().optional(), title: text.optional(), message: text.optional(), error_data: z.object({ details: text.optional() }).optional() }))
    .optional(),
});
export type CloudStatus = z.output<typeof CloudStatusSchema>;

export const CloudProfileSchema = z.object({ wa_id: text.optional(), profile: z.object({ name: text.optional() }).optional() });

/** The value of a `messages` change: the arrays are checked as arrays, their items one by one later. */
const MessagesValueSchema = z.object({
  metadata: z.object({ phone_number_id: text.optional() }).optional(),
  contacts: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});
export type CloudValue = z.output<typeof MessagesValueSchema>;

const ChangeSchema = z.object({ field: text.optional(), value: z.unknown().optional() }).superRefine((change, ctx) => {
  if (change.field !== 'messages') return;
  const value = MessagesValueSchema.safeParse(change.value);
  if (!value.success) for (const issue of value.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: ['value', ...issue.path] });
});

export const CloudPayloadSchema = z.object({
  object: text.optional(),
  entry: z.array(z.object({ id: text.optional(), changes: z.array(ChangeSchema).optional() })),
});

/** A checked body: each `messages` change with its value parsed (other fields are not read). */
export interface CloudPayload {
  entry: { changes: { field: string; value: CloudValue }[] }[];
}

export type ParsedCloudBody = { ok: true; payload: CloudPayload } | { ok: false; issues: string[] };

/** The body's envelope checked (see above); the items are checked when handled (`itemsOf`). */
export function parseCloudBody(json: unknown): ParsedCloudBody {
  const parsed = CloudPayloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`) };
  return {
    ok: true,
    payload: {
      entry: parsed.data.entry.map((e) => ({
        changes: (e.changes ?? []).filter((c) => c.field === 'messages').map((c) => ({ field: 'messages', value: MessagesValueSchema.parse(c.value) })),
      })),
    },
  };
}

/**
 * The phone number ids a body names (`entry[].changes[].value.metadata.phone_number_id`), read without
 * trusting its shape: which Cloud lines' app secrets may have signed it (the app-level hook). At most 50.
 */
export function phoneNumberIdsIn(json: unknown): string[] {
  const ids = new Set<string>();
  const entries = (json as { entry?: unknown } | null)?.entry;
  if (!Array.isArray(entries)) return [];
  for (const entry of entries.slice(0, 100)) {
    const changes = (entry as { changes?: unknown } | null)?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes.slice(0, 100)) {
      const pid = (change as { value?: { metadata?: { phone_number_id?: unknown } } } | null)?.value?.metadata?.phone_number_id;
      if (typeof pid === 'string' && /^\d{1,30}$/.test(pid)) ids.add(pid);
      if (ids.size >= 50) return [...ids];
    }
  }
  return [...ids];
}
