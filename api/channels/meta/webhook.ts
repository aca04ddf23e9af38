import type { Knex } from 'knex';
import type { ChannelDeps, ChannelRecord } from '../adapter';
import type { InboundEventKind, ParsedEvent } from '../inbound';
import { channelByIdentifier } from '../hookChannel';
import { receiveInbound, type InboundDeps } from '../../inbound/receiveInbound';
import { isFileItem, isMediaContent, textOf, type ContentItem } from '../../conversations/content';
import { ensureOpenCall } from '../../conversations/calls';
import { lockConversation } from '../../conversations/queries';
import { publishConversationEvent, publishMessageStatus } from '../../conversations/fanout';
import { MessageStatus } from '../../models/Message';
import { storeInboundMedia } from '../inboundMedia';
import { createStorage } from '../../storage/storage';
import { textItem } from '../content';
import { downloadAttachment } from './client';
import { customerProfile } from './profile';
import { checkMetaBatch } from './webhookSchema';
import { facebookIdentifier, instagramIdentifier, pageLineOf, type PageLine } from './pageLine';

/** Meta's messaging webhook as the Messenger Platform and Instagram Messaging docs describe it. */
export interface MetaAttachment {
  type?: string;
  payload?: { url?: string; sticker_id?: number; title?: string } | null;
  title?: string;
  url?: string;
}
export interface MetaMessage {
  mid?: string;
  text?: string;
  is_echo?: boolean;
  app_id?: number | string;
  is_deleted?: boolean;
  attachments?: MetaAttachment[];
  reply_to?: { mid?: string; story?: { url?: string; id?: string } };
}
export interface MessagingEvent {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: MetaMessage;
  delivery?: { mids?: string[]; watermark?: number };
  read?: { watermark?: number; mid?: string };
  postback?: { mid?: string; title?: string; payload?: string };
}
export interface MetaEntry {
  id?: string;
  time?: number;
  messaging?: MessagingEvent[];
}
export interface MetaPayload {
  object?: string;
  entry?: MetaEntry[];
}

type Deps = InboundDeps & ChannelDeps;

export const MEDIA_UNAVAILABLE_NOTE = 'Mídia não recebida: o Facebook não a entregou.';
export const INSTAGRAM_UNAVAILABLE_NOTE = 'Mídia não recebida: o link do Instagram expirou ou foi removido.';

const KIND_LABEL: Record<string, string> = { image: 'Imagem', video: 'Vídeo', audio: 'Áudio', file: 'Arquivo', ig_reel: 'Reel', reel: 'Reel', share: 'Compartilhamento', post: 'Publicação', ig_post: 'Publicação' };
const DEFAULT_MIME: Record<string, string> = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/mpeg', file: 'application/octet-stream' };
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/aac': 'aac', 'application/pdf': 'pdf' };

/** The channel an entry belongs to: `page` entries by page id, `instagram` entries by Instagram account id. */
async function channelOfEntry(knex: Knex, object: string, entryId: string): Promise<ChannelRecord | undefined> {
  if (object === 'page') return channelByIdentifier(knex, 'facebook', facebookIdentifier(entryId));
  if (object === 'instagram') return channelByIdentifier(knex, 'instagram', instagramIdentifier(entryId));
  return undefined;
}

/** Instagram attachments a person sent that are copied like Messenger's; reels and posts stay links (public content). */
const INSTAGRAM_COPIED = new Set(['image', 'video', 'audio', 'file']);

/**
 * A Messenger attachment goes into our storage, and so does an image, video, audio or file a person sends
 * on Instagram (docs/decisions.md, "Instagram media is copied"): Meta's lookaside CDN links expire, and a
 * conversation must still show what the customer sent. The 16 MB cap and the notes are the same; an
 * Instagram link that no longer answers becomes INSTAGRAM_UNAVAILABLE_NOTE.
 */
async function attachmentItem(deps: Deps, channel: ChannelRecord, a: MetaAttachment, mid: string, index: number): Promise<ContentItem> {
  const type = a.type ?? 'file';
  const url = a.payload?.url ?? a.url;
  if (type === 'story_mention') return textItem(`📣 Mencionou você em um story: ${url ?? '(story indisponível)'}`);
  if (type === 'fallback' || type === 'template' || type === 'share' || type === 'post' || type === 'ig_post') {
    return textItem([`🔗 ${a.title ?? a.payload?.title ?? KIND_LABEL[type] ?? 'Link'}`, url].filter(Boolean).join(': '));
  }
  if (type === 'location') return textItem(`📍 ${url ?? a.title ?? 'Localização'}`);
  if (!url) return textItem(`Anexo do tipo "${type}" sem conteúdo.`);
  const label = a.payload?.sticker_id ? 'Figurinha' : (KIND_LABEL[type] ?? 'Anexo');
  if (channel.type === 'instagram' && !INSTAGRAM_COPIED.has(type)) return textItem(`📎 ${label}: ${url}`);
  const fetchMedia = async () => {
    const { bytes, mime: served } = await downloadAttachment(url);
    const mime = served === 'application/octet-stream' ? (DEFAULT_MIME[type] ?? served) : served;
    const fromUrl = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    const base = a.payload?.sticker_id ? `sticker-${a.payload.sticker_id}` : `${type}-${mid.slice(-12).replace(/[^\w-]/g, '')}-${index}`;
    const fileName = type === 'file' && /\.\w{1,8}$/.test(fromUrl) ? fromUrl : `${base}.${EXTENSION[mime] ?? 'bin'}`;
    return { bytes, fileName, mime };
  };
  // The batch is already stored and answered (/hooks/meta): every failure is a note, never a redelivery.
  return storeInboundMedia(deps, channel, fetchMedia, {
    unavailableNote: channel.type === 'instagram' ? INSTAGRAM_UNAVAILABLE_NOTE : MEDIA_UNAVAILABLE_NOTE,
    providerFailures: 'note',
    log: { message: 'meta attachment not downloaded', fields: { channelId: channel.id, mid } },
  });
}

/**
 * Messenger sends a sticker as a `sticker` attachment with its `sticker_id` (changelog 2026-06-01); during
 * the change (until 2026-08-30) the old `image` attachment of the same sticker came beside it. One copy is
 * kept: the `image` one is left out when a `sticker` one names the same sticker.
 */
function withoutStickerImages(attachments: MetaAttachment[]): MetaAttachment[] {
  const stickers = new Set(attachments.filter((a) => a?.type === 'sticker' && a.payload?.sticker_id !== undefined).map((a) => a.payload!.sticker_id));
  if (!stickers.size) return attachments;
  return attachments.filter((a) => !(a?.type === 'image' && a.payload?.sticker_id !== undefined && stickers.has(a.payload.sticker_id)));
}

async function contentOf(deps: Deps, channel: ChannelRecord, m: MetaMessage, mid: string): Promise<{ content: ContentItem[]; extra: Record<string, unknown> }> {
  const content: ContentItem[] = [];
  const extra: Record<string, unknown> = {};
  const story = m.reply_to?.story;
  if (story) {
    extra.storyReply = { id: story.id ?? null, url: story.url ?? null };
    content.push(textItem(`↩️ Resposta ao seu story: ${story.url ?? '(story indisponível)'}`));
  }
  for (const [i, a] of withoutStickerImages(m.attachments ?? []).entries()) {
    if (a?.type === 'story_mention') extra.storyMention = { url: a.payload?.url ?? null };
    content.push(await attachmentItem(deps, channel, a, mid, i));
  }
  if (typeof m.text === 'string' && m.text) content.push(textItem(m.text));
  if (!content.length) content.push(textItem('Mensagem de um tipo não suportado.'));
  return { content, extra };
}

/**
 * The files a message's copy stored when that message turned out to be stored already (the same batch
 * delivered twice at once, both past the `known` check): nothing refers to them, and they would count
 * against the workspace's storage budget.
 */
async function discardFiles(deps: Deps, channel: ChannelRecord, content: ContentItem[]): Promise<void> {
  const keys = content.filter(isFileItem).map((item) => item.file.key);
  if (!keys.length) return;
  try {
    await deps.knex('stored_files').where({ workspaceId: channel.workspaceId, channelId: channel.id }).whereIn('key', keys).delete();
    const storage = createStorage(deps.config);
    await Promise.all(keys.map((key) => storage.delete(key).catch(() => undefined)));
  } catch (err) {
    deps.logger.warn({ err, channelId: channel.id }, 'meta duplicate files not removed');
  }
}

const cut = (v: string | null | undefined, max: number) => (v && v.length <= max ? v : null);

/** The customer's name and picture (cached lookups); a change replaces what the contact had. */
async function identityOf(deps: Deps, channel: ChannelRecord, line: PageLine, userId: string) {
  const { profile, fresh } = await customerProfile(deps, channel, line, userId);
  if (fresh && profile) {
    const cp = await deps.knex('customer_platforms').where({ channelId: channel.id, externalId: userId }).first('customer_id');
    if (cp) {
      const update: { name?: string; avatar?: string } = {};
      if (profile.name) update.name = profile.name.slice(0, 255);
      const avatar = cut(profile.picture, 500);
      if (avatar) update.avatar = avatar;
      if (Object.keys(update).length) {
        await deps.knex('customers')
          .where({ id: cp.customerId, workspaceId: channel.workspaceId })
          .where((q) => void q.whereRaw('name IS DISTINCT FROM ?', [update.name ?? null]).orWhereRaw('avatar IS DISTINCT FROM ?', [update.avatar ?? null]))
          .update({ ...update, updatedAt: deps.knex.fn.now() });
      }
    }
  }
  return { externalId: userId, name: profile?.name ?? null, avatar: cut(profile?.picture, 500) };
}

async function receiveMessage(deps: Deps, channel: ChannelRecord, line: PageLine, e: MessagingEvent, m: MetaMessage & { mid: string }): Promise<void> {
  const userId = e.sender!.id!;
  const known = await deps.knex('messages').where({ channelId: channel.id, externalId: m.mid }).first('id');
  if (known) return;
  const { content, extra } = await contentOf(deps, channel, m, m.mid);
  const sent = e.timestamp ? new Date(e.timestamp) : undefined;
  const result = await receiveInbound(deps, {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    externalId: m.mid,
    identity: await identityOf(deps, channel, line, userId),
    content,
    replyToExternalId: m.reply_to?.mid ?? null,
    sentAt: sent && !Number.isNaN(sent.getTime()) ? sent : undefined,
    extraData: extra,
  });
  if (result.duplicate) await discardFiles(deps, channel, content);
}

/**
 * An echo: a message the page sent. One our own app sent is already ours (the delivery path records its
 * id); one typed in Meta's own inbox (Business Suite, the Instagram app) is stored as an agent message
 * without an agent, in the conversation of the person it went to. An echo to someone who never wrote to
 * this channel has no conversation here and is left out.
 */
async function storeEcho(deps: Deps, channel: ChannelRecord, e: MessagingEvent, m: MetaMessage & { mid: string }): Promise<void> {
  if (deps.config.metaAppId && m.app_id !== undefined && String(m.app_id) === deps.config.metaAppId) return;
  const userId = e.recipient?.id;
  if (!userId) return;
  const known = await deps.knex('messages').where({ channelId: channel.id, externalId: m.mid }).first('id');
  if (known) return;
  const { content } = await contentOf(deps, channel, { ...m, reply_to: undefined }, m.mid);
  const createdAt = e.timestamp && e.timestamp < Date.now() ? new Date(e.timestamp) : new Date();
  const text = textOf(content);
  const stored = await deps.knex.transaction(async (trx) => {
    const found = await trx('customer_platforms').where({ channelId: channel.id, externalId: userId, workspaceId: channel.workspaceId }).first('id');
    if (!found) return undefined;
    const cp = await lockConversation(trx, channel.workspaceId, found.id);
    if (!cp) return undefined;
    // An echo without our app id (Instagram's carry none) while one of our sends is still on its way is
    // that send's echo: its id is recorded by the delivery path, which a copy here would collide with.
    const sending = await trx('messages').where({ customerPlatformId: cp.id, deliveryState: 'pending' }).whereNull('external_id').first('id');
    if (sending) return undefined;
    const call = await ensureOpenCall(trx, cp);
    const replyTo = m.reply_to?.mid ? await trx('messages').where({ channelId: channel.id, externalId: m.reply_to.mid }).first('id') : undefined;
    const [row]: { id: number }[] = await trx('messages')
      .insert({
        workspaceId: channel.workspaceId,
        customerPlatformId: cp.id,
        callId: call.callId,
        externalId: m.mid,
        content: JSON.stringify(content),
        text,
        type: 0,
        status: MessageStatus.RECEIVED,
        operatorId: null,
        sender: 'operator',
        isMedia: isMediaContent(content),
        replyToId: replyTo?.id ?? null,
        extraData: JSON.stringify({ echo: true }),
        createdAt,
      })
      .onConflict()
      .ignore()
      .returning('id');
    if (!row) return undefined;
    await trx('customer_platforms')
      .where({ id: cp.id })
      .update({
        lastMessage: JSON.stringify({ text: text.slice(0, 200), type: 0, sender: 'operator', createdAt: createdAt.toISOString() }),
        lastMessageAt: trx.raw('greatest(last_message_at, ?)', [createdAt]),
        currentCallId: call.callId,
        updatedAt: trx.fn.now(),
      });
    return { conversationId: cp.id, messageId: row.id, openedCall: call.opened };
  });
  if (!stored) return discardFiles(deps, channel, content);
  if (stored.openedCall) await publishConversationEvent(deps, 'chat.newCall', channel.workspaceId, stored.conversationId);
  await publishConversationEvent(deps, 'chat.newMessage', channel.workspaceId, stored.conversationId, { messageId: stored.messageId });
}

/**
 * Receipts move our messages to the customer forward, never back: `delivery` names mids (and a watermark:
 * everything sent before it), Messenger's `read` a watermark, Instagram's `read` the mid read (and so
 * everything before it in that conversation).
 */
async function applyReceipt(deps: Deps, channel: ChannelRecord, userId: string, status: number, receipt: { mids?: string[]; watermark?: number; mid?: string }): Promise<void> {
  const cp = await deps.knex('customer_platforms').where({ channelId: channel.id, externalId: userId, workspaceId: channel.workspaceId }).first('id', 'workspace_id', 'operator_id', 'group_id');
  if (!cp) return;
  const upTo: Date | undefined = receipt.watermark ? new Date(receipt.watermark) : undefined;
  // The message read, compared in the database: its timestamp has microseconds a JS Date would drop.
  const readMid = typeof receipt.mid === 'string' ? receipt.mid : undefined;
  const mids = (receipt.mids ?? []).filter((m) => typeof m === 'string');
  if (!upTo && !mids.length && !readMid) return;
  const moved: { id: number }[] = await deps.knex('messages')
    .where({ customerPlatformId: cp.id, workspaceId: channel.workspaceId })
    .whereIn('sender', ['operator', 'bot'])
    .where('status', '<', status)
    .where('status', '>=', MessageStatus.RECEIVED)
    .whereNotNull('external_id')
    .where((q) => {
      if (mids.length) q.orWhereIn('external_id', mids);
      if (upTo) q.orWhere('created_at', '<=', upTo);
      if (readMid) q.orWhereRaw('created_at <= (SELECT m.created_at FROM messages m WHERE m.channel_id = ? AND m.external_id = ? AND m.customer_platform_id = ?)', [channel.id, readMid, cp.id]);
    })
    .update({ status, updatedAt: deps.knex.fn.now() })
    .returning('id');
  for (const { id } of moved) await publishMessageStatus(deps, cp, id, status);
}

/** What one messaging event is (the normalised kinds of api/channels/inbound.ts), or undefined for nothing we handle. */
export function metaEventKind(line: PageLine, e: MessagingEvent): InboundEventKind | undefined {
  const m = e.message;
  if (m?.mid && m.is_echo) return 'echo';
  const userId = e.sender?.id;
  if (!userId) return undefined;
  // Instagram also echoes with the account itself as sender.
  if (userId === line.pageId || userId === line.instagramAccountId) return undefined;
  if (m?.mid && m.is_deleted) return 'delete';
  if (m?.mid || e.postback?.title) return 'message';
  if (e.delivery || e.read) return 'status';
  return undefined;
}

/** One messaging event of a channel's entry, as parsed from a batch (meta/inbound.ts). */
export interface MetaEvent {
  line: PageLine;
  event: MessagingEvent;
}

/**
 * Applies one normalised event: a message (or a postback's title) through the shared pipeline, an echo
 * stored as the page's own message, receipts moving our messages forward. A deleted message changes
 * nothing (Meta sends no content for it).
 */
export async function applyMetaEvent(deps: Deps, channel: ChannelRecord, kind: InboundEventKind, { line, event: e }: MetaEvent): Promise<void> {
  const m = e.message;
  const userId = e.sender?.id ?? '';
  if (kind === 'echo') return storeEcho(deps, channel, e, m as MetaMessage & { mid: string });
  if (kind === 'message' && m?.mid) return receiveMessage(deps, channel, line, e, m as MetaMessage & { mid: string });
  if (kind === 'message' && e.postback?.title) {
    const mid = e.postback.mid ?? `postback:${userId}:${e.timestamp ?? Date.now()}`;
    return receiveMessage(deps, channel, line, e, { mid, text: e.postback.title });
  }
  if (kind === 'status' && e.delivery) return applyReceipt(deps, channel, userId, MessageStatus.DELIVERED, e.delivery);
  if (kind === 'status' && e.read) return applyReceipt(deps, channel, userId, MessageStatus.READ, e.read);
}

/**
 * One verified batch as normalised events (docs/channels/meta.md): each entry goes to the channel of its
 * page or Instagram account, in whichever workspace connected it; an entry nobody connected is dropped.
 */
export async function parseMetaBatch(deps: Deps, payload: MetaPayload): Promise<{ events: ParsedEvent<MetaEvent>[]; dropped: number }> {
  const events: ParsedEvent<MetaEvent>[] = [];
  let dropped = 0;
  // Batches stored before the edge checked them are checked here too (webhookSchema.ts); a checked one is unchanged.
  const checked = checkMetaBatch(payload)?.payload ?? { entry: [] };
  const object = checked.object ?? '';
  for (const entry of checked.entry ?? []) {
    if (!entry?.id || !Array.isArray(entry.messaging)) continue;
    const channel = await channelOfEntry(deps.knex, object, String(entry.id));
    const line = channel ? pageLineOf(deps.config, channel) : undefined;
    if (!channel || !line) {
      dropped++;
      continue;
    }
    for (const e of entry.messaging) {
      const kind = metaEventKind(line, e);
      if (kind) events.push({ kind, channel, externalId: e.message?.mid ?? e.postback?.mid ?? null, item: { line, event: e } });
    }
  }
  return { events, dropped };
}

