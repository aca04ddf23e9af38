import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelDeps, ChannelRecord } from '../adapter';
import type { InboundDeps } from '../../conversations/receiveInbound';
import { receiveInbound } from '../../conversations/receiveInbound';
import type { ContentItem } from '../../conversations/content';
import { publishMessageStatus } from '../../conversations/fanout';
import { MessageStatus } from '../../models/Message';
import { InboundStorageFullError, storeInboundFile } from '../inboundFile';
import { setChannelStatus } from '../channelStatus';
import type { CloudLine } from './cloudLine';
import { downloadGraphMedia, graphMediaInfo, isAuthError, MEDIA_LIMIT_BYTES, MediaTooLargeError } from './client';
import { locationText, MEDIA_TOO_LARGE_NOTE, MEDIA_UNAVAILABLE_NOTE, textItem, type WhatsappMediaKind } from './mapping';
import { applyCampaignReceipt } from '../../campaigns/receipts';
import { ChannelSendError } from '../sendErrors';

/** X-Hub-Signature-256 = `sha256=` + hex HMAC-SHA256 of the raw body with the app secret; constant-time. */
export function validSignature(raw: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice(7), 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface CloudMedia {
  id: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
}
interface CloudMessage {
  from: string;
  id: string;
  timestamp?: string;
  type: string;
  text?: { body?: string };
  image?: CloudMedia;
  audio?: CloudMedia;
  video?: CloudMedia;
  document?: CloudMedia;
  sticker?: CloudMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  context?: { from?: string; id?: string };
}
interface CloudStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}
interface CloudValue {
  metadata?: { phone_number_id?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
}
export interface CloudPayload {
  object?: string;
  entry?: { changes?: { field?: string; value?: CloudValue }[] }[];
}

const MEDIA_KINDS: WhatsappMediaKind[] = ['image', 'audio', 'video', 'document', 'sticker'];
const STATUS_OF: Record<string, number> = { sent: MessageStatus.RECEIVED, delivered: MessageStatus.DELIVERED, read: MessageStatus.READ };
const EXTENSION: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'video/mp4': 'mp4', 'application/pdf': 'pdf' };

type Deps = InboundDeps & ChannelDeps;

/** Downloads one media item into our storage and records it; a refusal becomes a visible note instead. */
async function storeMedia(deps: Deps, channel: ChannelRecord, line: CloudLine, kind: WhatsappMediaKind, media: CloudMedia): Promise<ContentItem> {
  try {
    const info = await graphMediaInfo(deps.config, line.accessToken, media.id);
    if ((info.file_size ?? 0) > MEDIA_LIMIT_BYTES) return textItem(MEDIA_TOO_LARGE_NOTE);
    const bytes = await downloadGraphMedia(info.url, line.accessToken);
    const mime = (info.mime_type ?? media.mime_type ?? 'application/octet-stream').split(';')[0].trim();
    const fileName = media.filename ?? `${kind}-${media.id}.${EXTENSION[mime] ?? 'bin'}`;
    return { file: await storeInboundFile(deps, { workspaceId: channel.workspaceId, channelId: channel.id }, { bytes, fileName, mime }) };
  } catch (err) {
    if (err instanceof MediaTooLargeError) return textItem(MEDIA_TOO_LARGE_NOTE);
    if (err instanceof InboundStorageFullError) return textItem(err.note);
    if (err instanceof ChannelSendError && err.disconnect) await setChannelStatus(deps, channel, 'disconnected');
    // Transient: let Meta redeliver the webhook (it retries non-2xx answers).
    if (err instanceof ChannelSendError && err.transient) throw err;
    deps.logger.warn({ err, mediaId: media.id }, 'whatsapp media not downloaded');
    return textItem(MEDIA_UNAVAILABLE_NOTE);
  }
}

async function contentOf(deps: Deps, channel: ChannelRecord, line: CloudLine, m: CloudMessage): Promise<ContentItem[]> {
  if (m.type === 'text') return [textItem(m.text?.body ?? '')];
  if (m.type === 'location' && m.location) return [textItem(locationText(m.location))];
  const kind = MEDIA_KINDS.find((k) => k === m.type);
  const media = kind ? m[kind] : undefined;
  if (kind && media?.id) {
    const item = await storeMedia(deps, channel, line, kind, media);
    return media.caption ? [item, textItem(media.caption)] : [item];
  }
  return [textItem(`Mensagem do tipo "${m.type}" não suportada.`)];
}

async function applyStatus(deps: Deps, channel: ChannelRecord, s: CloudStatus): Promise<void> {
  const row = await deps.knex('messages').where({ channelId: channel.id, externalId: s.id }).first('id', 'status', 'customer_platform_id');
  // Not an inbox message: a campaign's send, whose receipts go to its number (docs/campaigns.md).
  if (!row) return applyCampaignReceipt(deps.knex, channel.workspaceId, s);
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

/**
 * A verified Cloud webhook (docs/channels/whatsapp.md): messages for this line's phone number id go
 * through the shared inbound pipeline (idempotent by the `wamid`), statuses move the message status.
 * A message already stored is skipped before its media is downloaded again.
 */
export async function handleCloudWebhook(deps: Deps, channel: ChannelRecord, line: CloudLine, payload: CloudPayload): Promise<void> {
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const value = change.value;
      if (change.field !== 'messages' || !value) continue;
      if (value.metadata?.phone_number_id && value.metadata.phone_number_id !== line.phoneNumberId) continue;
      const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
      for (const m of value.messages ?? []) {
        if (!m?.id || !m.from) continue;
        const known = await deps.knex('messages').where({ channelId: channel.id, externalId: m.id }).first('id');
        if (known) continue;
        const sent = m.timestamp ? new Date(Number(m.timestamp) * 1000) : undefined;
        await receiveInbound(deps, {
          workspaceId: channel.workspaceId,
          channelId: channel.id,
          externalId: m.id,
          identity: { externalId: m.from, name: names.get(m.from) ?? null, phone: `+${m.from}` },
          content: await contentOf(deps, channel, line, m),
          replyToExternalId: m.context?.id ?? null,
          sentAt: sent && !Number.isNaN(sent.getTime()) ? sent : undefined,
        });
      }
      for (const s of value.statuses ?? []) if (s?.id) await applyStatus(deps, channel, s);
    }
  }
}
