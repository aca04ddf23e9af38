import { createHash, timingSafeEqual } from 'node:crypto';
import type { ChannelDeps, ChannelRecord } from '../adapter';
import type { InboundDeps } from '../../inbound/receiveInbound';
import { receiveInbound } from '../../inbound/receiveInbound';
import { isFileItem, normalizeContent, textOf, type ContentItem } from '../../conversations/content';
import { publishMessageStatus } from '../../conversations/fanout';
import { storeInboundMedia } from '../inboundMedia';
import { locationText, textItem } from '../content';
import { downloadTelegramFile, MEDIA_LIMIT_BYTES, MediaTooLargeError } from './client';
import { externalIdOf, type TelegramLine } from './line';
import type { TgMessage } from './updateSchema';

/** X-Telegram-Bot-Api-Secret-Token equals the line's secret_token; compared in constant time. */
export function validSecretToken(header: string | undefined, secretToken: string): boolean {
  if (!header) return false;
  const given = createHash('sha256').update(header).digest();
  const expected = createHash('sha256').update(secretToken).digest();
  return timingSafeEqual(given, expected);
}

type TgFile = NonNullable<TgMessage['document']>;

export const MEDIA_UNAVAILABLE_NOTE = 'Mídia não recebida: o Telegram não a entregou.';

type Deps = InboundDeps & ChannelDeps;
type MediaKind = 'photo' | 'document' | 'voice' | 'audio' | 'video' | 'sticker';

const DEFAULT_MIME: Record<MediaKind, string> = { photo: 'image/jpeg', document: 'application/octet-stream', voice: 'audio/ogg', audio: 'audio/mpeg', video: 'video/mp4', sticker: 'image/webp' };
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/webp': 'webp', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'video/mp4': 'mp4', 'video/webm': 'webm', 'application/x-tgsticker': 'tgs', 'application/pdf': 'pdf' };

function mimeOf(kind: MediaKind, file: TgMessage['sticker']): string {
  if (kind === 'sticker' && file?.is_animated) return 'application/x-tgsticker';
  if (kind === 'sticker' && file?.is_video) return 'video/webm';
  return (file?.mime_type ?? DEFAULT_MIME[kind]).split(';')[0].trim();
}

/** getFile + download into our storage; a refusal becomes a visible note (transient ones are retried by Telegram). */
function storeMedia(deps: Deps, channel: ChannelRecord, line: TelegramLine, kind: MediaKind, file: TgMessage['sticker'] & TgFile): Promise<ContentItem> {
  const fetchMedia = async () => {
    if ((file.file_size ?? 0) > MEDIA_LIMIT_BYTES) throw new MediaTooLargeError();
    const { bytes, filePath } = await downloadTelegramFile(deps.config, line.token, file.file_id);
    const mime = mimeOf(kind, file);
    const fromPath = filePath.split('/').pop();
    const fileName = file.file_name ?? (kind === 'document' && fromPath ? fromPath : `${kind}-${file.file_unique_id ?? file.file_id.slice(0, 16)}.${EXTENSION[mime] ?? 'bin'}`);
    return { bytes, fileName, mime };
  };
  return storeInboundMedia(deps, channel, fetchMedia, {
    unavailableNote: MEDIA_UNAVAILABLE_NOTE,
    providerFailures: 'redeliver',
    log: { message: 'telegram media not downloaded', fields: { fileId: file.file_id } },
  });
}

function contactText(c: NonNullable<TgMessage['contact']>): string {
  const name = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return `👤 ${name ? `${name}\n` : ''}${c.phone_number}`;
}

async function contentOf(deps: Deps, channel: ChannelRecord, line: TelegramLine, m: TgMessage): Promise<ContentItem[]> {
  const caption = m.caption ? [textItem(m.caption)] : [];
  if (m.photo?.length) {
    // PhotoSize variants come smallest first: the largest that fits the limit.
    const fitting = m.photo.filter((p) => (p.file_size ?? 0) <= MEDIA_LIMIT_BYTES);
    const best = fitting[fitting.length - 1] ?? m.photo[m.photo.length - 1];
    return [await storeMedia(deps, channel, line, 'photo', best), ...caption];
  }
  for (const kind of ['document', 'voice', 'audio', 'video', 'sticker'] as const) {
    const file = m[kind];
    if (file?.file_id) return [await storeMedia(deps, channel, line, kind, file), ...caption];
  }
  if (typeof m.text === 'string') return [textItem(m.text)];
  if (m.location) return [textItem(locationText(m.location))];
  if (m.contact) return [textItem(contactText(m.contact))];
  return [textItem('Mensagem de um tipo não suportado pelo Telegram.')];
}

function nameOf(m: TgMessage): string | null {
  if (m.chat.type && m.chat.type !== 'private') return m.chat.title ?? null;
  const who = m.from ?? m.chat;
  return [who.first_name, who.last_name].filter(Boolean).join(' ') || who.username || null;
}

/**
 * An edited_message: the stored message takes the new text (its files stay), is marked `extraData.edited`
 * and the team sees chat.messageStatus with the new content. An edit of a message we never stored is
 * stored as a new message. Only a customer's message is ever edited: an update naming one of our agents'
 * messages (same chat, same id sequence) changes nothing, whoever sent it.
 */
async function applyEdit(deps: Deps, channel: ChannelRecord, line: TelegramLine, m: TgMessage): Promise<void> {
  const externalId = externalIdOf(m.chat.id, m.message_id);
  const row = await deps.knex('messages').where({ channelId: channel.id, externalId }).first('id', 'status', 'content', 'extra_data', 'customer_platform_id', 'is_deleted', 'sender');
  if (!row) {
    // A piece of an agent message that went out in several (`{chat}:{first},{second},…`) is ours too.
    if ((await quotedExternalId(deps, channel, m.chat.id, m.message_id)) !== externalId) return;
    return receive(deps, channel, line, m, { edited: true });
  }
  if (row.isDeleted || row.sender !== 'customer') return;
  const newText = m.text ?? m.caption ?? '';
  const files = normalizeContent(Array.isArray(row.content) ? row.content : []).filter(isFileItem);
  const content = [...files, ...(newText ? [textItem(newText)] : [])];
  const editedAt = new Date((m.edit_date ?? Math.floor(Date.now() / 1000)) * 1000).toISOString();
  const text = textOf(content);
  await deps.knex('messages')
    .where({ id: row.id })
    .update({ content: JSON.stringify(content), text, extraData: JSON.stringify({ ...(row.extraData ?? {}), edited: true, editedAt }), updatedAt: deps.knex.fn.now() });
  const cp = await deps.knex('customer_platforms').where({ id: row.customerPlatformId }).first('id', 'workspace_id', 'operator_id', 'group_id');
  if (cp) await publishMessageStatus(deps, cp, row.id, row.status, { edited: true, editedAt, content, text });
}

/**
 * The external id of the message a customer quotes: `{chat}:{id}`, or the agent message that went out in
 * several pieces (`{chat}:{first},{second},…`, adapter.ts) one of whose pieces is quoted.
 */
async function quotedExternalId(deps: Deps, channel: ChannelRecord, chatId: number, messageId: number): Promise<string> {
  const exact = externalIdOf(chatId, messageId);
  if (await deps.knex('messages').where({ channelId: channel.id, externalId: exact }).first('id')) return exact;
  const piece = await deps.knex('messages')
    .where({ channelId: channel.id })
    .whereLike('external_id', `${chatId}:%,%`)
    .whereRaw("? = any(string_to_array(split_part(external_id, ':', 2), ','))", [String(messageId)])
    .orderBy('id', 'desc')
    .first('external_id');
  return piece?.externalId ?? exact;
}

async function receive(deps: Deps, channel: ChannelRecord, line: TelegramLine, m: TgMessage, extra: Record<string, unknown> = {}): Promise<void> {
  const externalId = externalIdOf(m.chat.id, m.message_id);
  // A repeated update (same update_id, so the same message) is skipped before its media is downloaded again.
  const known = await deps.knex('messages').where({ channelId: channel.id, externalId }).first('id');
  if (known) return;
  const sent = m.date ? new Date(m.date * 1000) : undefined;
  const username = m.from?.username ?? m.chat.username;
  await receiveInbound(deps, {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    externalId,
    identity: { externalId: String(m.chat.id), name: nameOf(m) },
    content: await contentOf(deps, channel, line, m),
    replyToExternalId: m.reply_to_message ? await quotedExternalId(deps, channel, m.chat.id, m.reply_to_message.message_id) : null,
    sentAt: sent && !Number.isNaN(sent.getTime()) ? sent : undefined,
    extraData: { ...(username ? { username } : {}), ...extra },
  });
}

/**
 * One normalised Telegram event (telegram/inbound.ts): a `message` goes through the shared inbound pipeline,
 * idempotent by `{chat id}:{message id}` — a redelivered update_id carries the same message and stores
 * nothing new; an `edit` (edited_message) updates the stored one.
 */
export function applyTelegramEvent(deps: Deps, channel: ChannelRecord, line: TelegramLine, kind: 'message' | 'edit', m: TgMessage): Promise<void> {
  return kind === 'message' ? receive(deps, channel, line, m) : applyEdit(deps, channel, line, m);
}
