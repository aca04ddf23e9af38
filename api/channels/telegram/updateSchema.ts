import { z } from 'zod';
import { webhookText as text } from '../webhookText';

/**
 * The parts of a Telegram Update (Bot API, "Update" and "Message") the webhook reads, checked at the edge
 * (docs/channels/telegram.md, "Malformed updates"). Fields are optional exactly where the Bot API says
 * so; what we do not read is dropped. Strings lose NUL characters and lone surrogates (webhookText.ts).
 */
const id = z.number().int();
const positiveId = z.number().int().positive();

const TgFileSchema = z.object({
  file_id: text.pipe(z.string().min(1).max(1024)),
  file_unique_id: text.optional(),
  file_size: z.number().int().nonnegative().optional(),
  file_name: text.optional(),
  mime_type: text.optional(),
});

const TgStickerSchema = TgFileSchema.extend({
  is_animated: z.boolean().optional(),
  is_video: z.boolean().optional(),
  emoji: text.optional(),
});

const TgChatSchema = z.object({
  id,
  type: text.optional(),
  title: text.optional(),
  username: text.optional(),
  first_name: text.optional(),
  last_name: text.optional(),
});

const TgUserSchema = z.object({
  id,
  first_name: text.optional(),
  last_name: text.optional(),
  username: text.optional(),
});

const coordinate = z.number().finite();
/** Unix time in seconds (the Bot API's `date`), bounded so it is always a date PostgreSQL stores. */
const unixTime = z.number().int().nonnegative().max(2 ** 32);

export const TgMessageSchema = z.object({
  message_id: positiveId,
  date: unixTime.optional(),
  edit_date: unixTime.optional(),
  from: TgUserSchema.optional(),
  chat: TgChatSchema,
  text: text.optional(),
  caption: text.optional(),
  photo: z.array(TgFileSchema).optional(),
  document: TgFileSchema.optional(),
  voice: TgFileSchema.optional(),
  audio: TgFileSchema.optional(),
  video: TgFileSchema.optional(),
  sticker: TgStickerSchema.optional(),
  location: z.object({ latitude: coordinate.min(-90).max(90), longitude: coordinate.min(-180).max(180) }).optional(),
  contact: z.object({ phone_number: text, first_name: text.optional(), last_name: text.optional() }).optional(),
  /** The quoted message: only its id is read. */
  reply_to_message: z.object({ message_id: positiveId }).optional(),
});
export type TgMessage = z.output<typeof TgMessageSchema>;

export type ParsedUpdate =
  | { kind: 'message' | 'edited_message'; message: TgMessage }
  /** An update type we do not handle (callback_query, my_chat_member...): acknowledged, nothing stored. */
  | { kind: 'other' }
  /** A message or edited_message that is not what the Bot API describes: acknowledged and skipped. */
  | { kind: 'malformed'; field: 'message' | 'edited_message'; issues: string[] };

/** Which handled update a JSON object is, validated; `undefined` when it is not an object at all. */
export function parseTelegramUpdate(json: unknown): ParsedUpdate | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const update = json as Record<string, unknown>;
  for (const field of ['message', 'edited_message'] as const) {
    if (!(field in update)) continue;
    const parsed = TgMessageSchema.safeParse(update[field]);
    if (!parsed.success) return { kind: 'malformed', field, issues: parsed.error.issues.slice(0, 5).map((i) => `${[field, ...i.path].join('.')}: ${i.message}`) };
    return { kind: field, message: parsed.data };
  }
  return { kind: 'other' };
}
