import type { ChannelDeps, ChannelRecord } from '../adapter';
import type { InboundDeps } from '../../inbound/receiveInbound';
import { receiveInbound } from '../../inbound/receiveInbound';
import type { ContentItem } from '../../conversations/content';
import { publishMessageStatus } from '../../conversations/fanout';
import { MessageStatus } from '../../models/Message';
import { storeInboundMedia } from '../inboundMedia';
import { setChannelStatus } from '../channelStatus';
import type { CloudLine } from './cloudLine';
import { downloadGraphMedia, graphMediaInfo, isAuthError, MEDIA_LIMIT_BYTES, MediaTooLargeError } from './client';
import { contactsText, locationText, textItem } from '../content';
import { MEDIA_UNAVAILABLE_NOTE, type WhatsappMediaKind } from './mapping';
import { applyForeignReceipt } from '../../inbound/receipts';
import type { InboundEventKind, ParsedEvent } from '../inbound';
import { CloudMessageSchema, CloudProfileSchema, CloudStatusSchema, type CloudContactCard, type CloudMessage, type CloudPayload, type CloudStatus } from './webhookSchema';

export type { CloudPayload };

type CloudMedia = NonNullable<CloudMessage['image']>;

const MEDIA_KINDS: WhatsappMediaKind[] = ['image', 'audio', 'video', 'document', 'sticker'];
const STATUS_OF: Record<string, number> = { sent: MessageStatus.RECEIVED, delivered: MessageStatus.DELIVERED, read: MessageStatus.READ };
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'video/mp4': 'mp4', 'application/pdf': 'pdf' };

type Deps = InboundDeps & ChannelDeps;

/** Downloads one media item into our storage and records it; a refusal becomes a visible note instead (transient ones are retried by the hook store's sweep). */
function storeMedia(deps: Deps, channel: ChannelRecord, line: CloudLine, kind: WhatsappMediaKind, media: CloudMedia): Promise<ContentItem> {
  const fetchMedia = async () => {
    const info = await graphMediaInfo(deps.config, line.accessToken, media.id);
    if ((info.file_size ?? 0) > MEDIA_LIMIT_BYTES) throw new MediaTooLargeError();
    const bytes = await downloadGraphMedia(info.url, line.accessToken);
    const mime = (info.mime_type ?? media.mime_type ?? 'application/octet-stream').split(';')[0].trim();
    const fileName = media.filename ?? `${kind}-${media.id}.${EXTENSION[mime] ?? 'bin'}`;
    return { bytes, fileName, mime };
  };
  return storeInboundMedia(deps, channel, fetchMedia, {
    unavailableNote: MEDIA_UNAVAILABLE_NOTE,
    providerFailures: 'redeliver',
    log: { message: 'whatsapp media not downloaded', fields: { mediaId: media.id } },
  });
}

/** What a message is stored as: its content, and what the inbox shows beside it (extra_data). */
interface Converted {
  content: ContentItem[];
  extraData?: Record<string, unknown>;
}

/** A shared contact as stored for the inbox's contact card: the name, phones (with their WhatsApp id), e-mails, company. */
function contactCard(c: CloudContactCard) {
  return {
    name: c.name?.formatted_name || [c.name?.first_name, c.name?.last_name].filter(Boolean).join(' ') || null,
    phones: (c.phones ?? []).filter((p) => p.phone || p.wa_id).map((p) => ({ phone: p.phone ?? `+${p.wa_id}`, waId: p.wa_id ?? null, type: p.type ?? null })),
    emails: (c.emails ?? []).filter((e) => e.email).map((e) => e.email!),
    org: c.org?.company ?? null,
  };
}

async function contentOf(deps: Deps, channel: ChannelRecord, line: CloudLine, m: CloudMessage): Promise<Converted> {
  if (m.type === 'text' && m.text) return { content: [textItem(m.text.body)] };
  if (m.type === 'location' && m.location) {
    const { latitude, longitude, name, address } = m.location;
    return { content: [textItem(locationText(m.location))], extraData: { location: { latitude, longitude, name: name ?? null, address: address ?? null } } };
  }
  if (m.type === 'contacts' && m.contacts?.length) {
    const contacts = m.contacts.map(contactCard);
    return { content: [textItem(contactsText(contacts))], extraData: { contacts } };
  }
  // A quick-reply button of a template: the customer's text is the button's label, its payload kept beside it.
  if (m.type === 'button' && m.button) {
    return { content: [textItem(m.button.text)], extraData: { buttonReply: { kind: 'button', id: m.button.payload ?? null, title: m.button.text } } };
  }
  const reply = m.type === 'interactive' ? (m.interactive?.button_reply ?? m.interactive?.list_reply) : undefined;
  if (reply && m.interactive) {
    const description = m.interactive.list_reply?.description ?? null;
    return { content: [textItem(reply.title)], extraData: { buttonReply: { kind: m.interactive.type, id: reply.id, title: reply.title, description } } };
  }
  const kind = MEDIA_KINDS.find((k) => k === m.type);
  const media = kind ? m[kind] : undefined;
  if (kind && media) {
    const item = await storeMedia(deps, channel, line, kind, media);
    return { content: media.caption ? [item, textItem(media.caption)] : [item] };
  }
  return { content: [textItem(`Mensagem do tipo "${m.type}" não suportada.`)] };
}

/**
 * A reaction is not a message: it is stored on the message it reacts to (`extra_data.reaction`, the
 * customer's one emoji, `emoji: null` once removed) and published as chat.messageStatus with `reaction`.
 * Only a message of this customer's conversation on this line takes it; a redelivered older reaction does
 * not replace a newer one (by Meta's timestamp).
 */
async function applyReaction(deps: Deps, channel: ChannelRecord, m: CloudMessage, sentAt: Date | undefined): Promise<void> {
  const reaction = m.reaction!;
  const cp = await deps.knex('customer_platforms').where({ channelId: channel.id, externalId: m.from }).first('id', 'workspace_id', 'operator_id', 'group_id');
  if (!cp) return;
  const at = (sentAt ?? new Date()).toISOString();
  const value = { emoji: reaction.emoji || null, at };
  const [row] = await deps
    .knex('messages')
    .where({ channelId: channel.id, externalId: reaction.message_id, customerPlatformId: cp.id })
    .whereRaw("coalesce(extra_data -> 'reaction' ->> 'at', '') <= ?", [at])
    .update({ extraData: deps.knex.raw("coalesce(extra_data, '{}'::jsonb) || jsonb_build_object('reaction', ?::jsonb)", [JSON.stringify(value)]) })
    .returning(['id', 'status']);
  if (row) await publishMessageStatus(deps, cp, row.id, row.status, { reaction: value });
}

async function applyStatus(deps: Deps, channel: ChannelRecord, s: CloudStatus): Promise<void> {
  const row = await deps.knex('messages').where({ channelId: channel.id, externalId: s.id }).first('id', 'status', 'customer_platform_id');
  // Not an inbox message: a campaign's send, whose receipts go to its number (docs/campaigns.md).
  if (!row) return applyForeignReceipt(deps.knex, channel.workspaceId, s);
  const cp = await deps.knex('customer_platforms').where({ id: row.customerPlatformId }).first('id', 'workspace_id', 'operator_id', 'group_id');
  if (s.status === 'failed') {
    const e = s.errors?.[0];
    const reason = `O WhatsApp não entregou a mensagem: ${e?.error_data?.details ?? e?.message ?? e?.title ?? 'erro desconhecido'}${e?.code ? ` (${e.code})` : ''}`;
    await deps.knex('messages').where({ id: row.id }).update({ deliveryState: 'failed', deliveryError: reason, updatedAt: deps.knex.fn.now() });
    if (e?.code !== undefined && isAuthError(0, e.code)) await setChannelStatus(deps, channel, 'disconnected');
    await publishMessageStatus(deps, cp, row.id, row.status, { deliveryState: 'failed', deliveryError: reason });
    return;
  }
  const status = STATUS_OF[s.status];
  if (!status) return;
  // Receipts arrive out of order: a status only moves forward.
  const moved = await deps.knex('messages').where({ id: row.id }).where('status', '<', status).update({ status, updatedAt: deps.knex.fn.now() });
  if (moved) await publishMessageStatus(deps, cp, row.id, status);
}

/** Meta's Unix timestamp (seconds, as a string) as a date; one that is not a plausible time (before 2009) is ignored. */
function sentAtOf(timestamp: string | undefined): Date | undefined {
  const seconds = Number(timestamp);
  if (!timestamp || !Number.isFinite(seconds) || seconds < 1_230_768_000 || seconds > 32_503_680_000) return undefined;
  return new Date(seconds * 1000);
}

/** The items of a list that match `schema`; the others are logged and skipped (webhookSchema.ts). */
function itemsOf<T>(deps: Deps, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, list: unknown[] | undefined, what: string): T[] {
  const out: T[] = [];
  for (const item of list ?? []) {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else deps.logger.warn({ issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`) }, `whatsapp cloud webhook: malformed ${what} skipped`);
  }
  return out;
}

/** One item of a Cloud body for a line: a message (or a reaction) with the sender's profile name, or a status. */
export interface CloudEvent {
  line: CloudLine;
  message?: CloudMessage;
  name?: string | null;
  sentAt?: Date;
  status?: CloudStatus;
}

/**
 * A verified Cloud body as the normalised events of one line (whatsapp/inbound.ts): messages, reactions
 * and statuses of the changes for this line's phone number id. On the app-level hook
 * (`requirePhoneNumberId`) a change must name the line's phone number id; on the line's own hook a change
 * without metadata is the line's. A malformed item is logged and left out.
 */
export function parseCloudEvents(deps: Deps, channel: ChannelRecord, line: CloudLine, payload: CloudPayload, options: { requirePhoneNumberId?: boolean } = {}): ParsedEvent<CloudEvent>[] {
  const events: ParsedEvent<CloudEvent>[] = [];
  for (const entry of payload.entry) {
    for (const change of entry.changes) {
      const value = change.value;
      const pid = value.metadata?.phone_number_id;
      if (pid ? pid !== line.phoneNumberId : options.requirePhoneNumberId) continue;
      const profiles = itemsOf(deps, CloudProfileSchema, value.contacts, 'contact');
      const names = new Map(profiles.map((c) => [c.wa_id, c.profile?.name]));
      for (const m of itemsOf(deps, CloudMessageSchema, value.messages, 'message')) {
        const kind: InboundEventKind = m.type === 'reaction' && m.reaction ? 'reaction' : 'message';
        events.push({ kind, channel, externalId: kind === 'reaction' ? m.reaction!.message_id : m.id, item: { line, message: m, name: names.get(m.from) ?? null, sentAt: sentAtOf(m.timestamp) } });
      }
      for (const st of itemsOf<CloudStatus>(deps, CloudStatusSchema, value.statuses, 'status')) events.push({ kind: 'status', channel, externalId: st.id, item: { line, status: st } });
    }
  }
  return events;
}

/**
 * Applies one Cloud event (docs/channels/whatsapp.md): a message goes through the shared inbound pipeline
 * (idempotent by the `wamid`; one already stored is skipped before its media is downloaded again), a status
 * moves the message status, a reaction lands on the message it reacts to.
 */
export async function applyCloudEvent(deps: Deps, event: ParsedEvent<CloudEvent>): Promise<void> {
  const { channel, item } = event;
  const m = item.message;
  if (event.kind === 'status' && item.status) return applyStatus(deps, channel, item.status);
  if (!m) return;
  if (event.kind === 'reaction') return applyReaction(deps, channel, m, item.sentAt);
  const known = await deps.knex('messages').where({ channelId: channel.id, externalId: m.id }).first('id');
  if (known) return;
  const converted = await contentOf(deps, channel, item.line, m);
  await receiveInbound(deps, {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    externalId: m.id,
    identity: { externalId: m.from, name: item.name ?? null, phone: `+${m.from}` },
    content: converted.content,
    ...(converted.extraData ? { extraData: converted.extraData } : {}),
    replyToExternalId: m.context?.id ?? null,
    sentAt: item.sentAt,
  });
}
