import { isJidGroup, jidNormalizedUser, normalizeMessageContent, toNumber, type WAMessage } from 'baileys';
import type { proto } from 'baileys';
import { locationText } from '../../../api/channels/content';

/** The media kinds a QR line downloads into our storage (docs/channels/whatsapp.md). */
export type MediaKind = 'image' | 'audio' | 'video' | 'document' | 'sticker';

/** What a Baileys message says, before identity and storage: pure, so it is tested on proto payloads alone. */
export interface ParsedWaMessage {
  id: string;
  chatJid: string;
  /** The author: the chat itself in a 1:1 chat, the member in a group. */
  senderJid: string;
  isGroup: boolean;
  pushName: string | null;
  text: string;
  media?: { kind: MediaKind; mime: string; fileName: string; size: number; ptt: boolean };
  replyToExternalId: string | null;
  sentAt?: Date;
}

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'video/mp4': 'mp4' };

function extOf(mime: string): string {
  return EXT[mime.split(';')[0].trim()] ?? 'bin';
}

/** A WhatsApp location as text with a map link (the inbox has no location widget). */
/** Baileys' location as the shared text (api/channels/content.ts), the same a Cloud line stores. */
function qrLocationText(loc: proto.Message.ILocationMessage): string {
  return locationText({ latitude: loc.degreesLatitude ?? 0, longitude: loc.degreesLongitude ?? 0, name: loc.name ?? undefined, address: loc.address ?? undefined });
}

/**
 * Reads one `messages.upsert` entry. Answers undefined for what is not a customer's message: our own
 * (fromMe), protocol and reaction messages, status broadcasts, stubs without content.
 */
export function parseWaMessage(msg: WAMessage): ParsedWaMessage | undefined {
  const key = msg.key;
  if (!key.id || !key.remoteJid || key.fromMe) return undefined;
  if (key.remoteJid === 'status@broadcast' || key.remoteJid.endsWith('@broadcast') || key.remoteJid.endsWith('@newsletter')) return undefined;
  const content = normalizeMessageContent(msg.message);
  if (!content || content.protocolMessage || content.reactionMessage || content.senderKeyDistributionMessage && Object.keys(content).length === 1) return undefined;

  const isGroup = !!isJidGroup(key.remoteJid);
  const base = {
    id: key.id,
    chatJid: jidNormalizedUser(key.remoteJid),
    senderJid: jidNormalizedUser(isGroup ? key.participant ?? '' : key.remoteJid),
    isGroup,
    pushName: msg.pushName ?? null,
    sentAt: msg.messageTimestamp ? new Date(toNumber(msg.messageTimestamp) * 1000) : undefined,
  };
  const ctx = (m: { contextInfo?: proto.IContextInfo | null } | null | undefined) => m?.contextInfo?.stanzaId ?? null;
  const media = (kind: MediaKind, m: { mimetype?: string | null; fileLength?: Parameters<typeof toNumber>[0]; contextInfo?: proto.IContextInfo | null }, fileName: string | null | undefined, caption: string | null | undefined, ptt = false): ParsedWaMessage => {
    const mime = m.mimetype ?? 'application/octet-stream';
    return {
      ...base,
      text: caption ?? '',
      media: { kind, mime, fileName: fileName || `${kind}-${key.id}.${extOf(mime)}`, size: m.fileLength ? toNumber(m.fileLength) : 0, ptt },
      replyToExternalId: ctx(m),
    };
  };

  if (content.conversation) return { ...base, text: content.conversation, replyToExternalId: null };
  if (content.extendedTextMessage?.text) return { ...base, text: content.extendedTextMessage.text, replyToExternalId: ctx(content.extendedTextMessage) };
  if (content.imageMessage) return media('image', content.imageMessage, null, content.imageMessage.caption);
  if (content.videoMessage) return media('video', content.videoMessage, null, content.videoMessage.caption);
  if (content.audioMessage) return media('audio', content.audioMessage, null, null, !!content.audioMessage.ptt);
  if (content.documentMessage) return media('document', content.documentMessage, content.documentMessage.fileName, content.documentMessage.caption);
  if (content.stickerMessage) return media('sticker', content.stickerMessage, null, null);
  if (content.locationMessage) return { ...base, text: qrLocationText(content.locationMessage), replyToExternalId: ctx(content.locationMessage) };
  if (content.liveLocationMessage) return { ...base, text: qrLocationText(content.liveLocationMessage), replyToExternalId: ctx(content.liveLocationMessage) };
  if (content.contactMessage) return { ...base, text: `👤 ${content.contactMessage.displayName ?? ''}\n${content.contactMessage.vcard ?? ''}`.trim(), replyToExternalId: ctx(content.contactMessage) };
  return undefined;
}
