import { createHash } from 'node:crypto';
import type { AnyMessageContent, WAMessage } from 'baileys';
import type { ChannelDeps, ChannelRecord, OutboundMessage } from '../../adapter';
import { ChannelSendError } from '../../sendErrors';
import { readStoredFile } from '../../outbound/storedFile';
import { deltaToWhatsappText, filesOf, mediaKindOf } from '../mapping';
import type { QrSendSocket } from './sessionQueue';

/** A QR line's socket-bound operations that are not sends (number check, delete for everyone, typing). */
export type QrSocketOp = { kind: 'onWhatsApp'; phone: string } | { kind: 'delete'; jid: string; id: string } | { kind: 'composing'; jid: string };
export type QrSocketOpResult = { exists: boolean; jid: string | null } | { done: true };

export const QR_NOT_CONNECTED = 'A linha de WhatsApp não está conectada; nova tentativa em breve.';
export const QR_LOGGED_OUT = 'A linha de WhatsApp está desconectada. Leia o QR code novamente em Canais para reconectar.';
export const QR_SEND_FAILED = 'O WhatsApp não aceitou o envio agora; nova tentativa em breve.';

/** A conversation's external id is a JID (`…@s.whatsapp.net`, `…@lid`, `…@g.us`); bare digits become a phone JID. */
export function jidOf(recipient: string): string {
  return recipient.includes('@') ? recipient : `${recipient.replace(/\D/g, '')}@s.whatsapp.net`;
}

/**
 * The WhatsApp message id of one part of an outbound message, derived from its idempotency key: every
 * attempt sends the same id, so a resend after a crash (provider accepted, our commit lost) carries the id
 * the recipient's devices already hold instead of a new message. Shaped as Baileys' own ids (`3EB0` + hex).
 */
export function qrMessageId(idempotencyKey: string, part: number): string {
  return `3EB0${createHash('sha256').update(`${idempotencyKey}:${part}`).digest('hex').toUpperCase().slice(0, 18)}`;
}

/** Baileys' voice-note type for recorded audio (Opus in Ogg); other audio keeps its type. */
function audioMime(mime: string): string {
  return mime === 'audio/ogg' ? 'audio/ogg; codecs=opus' : mime;
}

/**
 * Delta content → Baileys' AnyMessageContent, one per WhatsApp message: text as `{text}`; each file as
 * image / video / document (file name kept) / sticker (webp) with the text as caption of the first that takes
 * one; audio as a voice note (`ptt: true`), as on Cloud lines.
 */
export async function qrContents(deps: ChannelDeps, content: unknown[]): Promise<AnyMessageContent[]> {
  const text = deltaToWhatsappText(content);
  const files = filesOf(content);
  if (!files.length) {
    if (!text) throw new ChannelSendError('Mensagem vazia.', { transient: false });
    return [{ text }];
  }
  const out: AnyMessageContent[] = [];
  let captioned = false;
  for (const file of files) {
    const bytes = await readStoredFile(deps, file.key);
    const caption = !captioned && text ? text : undefined;
    switch (mediaKindOf(file.mime)) {
      case 'image':
        out.push({ image: bytes, mimetype: file.mime, ...(caption ? { caption } : {}) });
        if (caption) captioned = true;
        break;
      case 'video':
        out.push({ video: bytes, mimetype: file.mime, ...(caption ? { caption } : {}) });
        if (caption) captioned = true;
        break;
      case 'document':
        out.push({ document: bytes, mimetype: file.mime, fileName: file.fileName, ...(caption ? { caption } : {}) });
        if (caption) captioned = true;
        break;
      case 'audio':
        out.push({ audio: bytes, mimetype: audioMime(file.mime), ptt: true });
        break;
      case 'sticker':
        out.push({ sticker: bytes, mimetype: file.mime });
        break;
    }
  }
  // No file took the caption (voice notes, stickers): the text goes after them as its own message.
  if (text && !captioned) out.push({ text });
  return out;
}

/** The quoted message as Baileys wants it (`options.quoted`): its key and enough of its content to show. */
async function quotedOf(deps: ChannelDeps, channel: ChannelRecord, jid: string, externalId: string): Promise<WAMessage> {
  const row: { sender: string; text: string | null; extraData: { whatsapp?: { participant?: string } } | null } | undefined = await deps.knex('messages as m')
    .join('customer_platforms as cp', 'cp.id', 'm.customer_platform_id')
    .where({ 'cp.channel_id': channel.id, 'm.workspace_id': channel.workspaceId, 'm.external_id': externalId })
    .first('m.sender', 'm.text', 'm.extra_data');
  const fromMe = !!row && row.sender !== 'customer';
  const participant = row?.extraData?.whatsapp?.participant;
  return {
    key: { remoteJid: jid, id: externalId, fromMe, ...(participant && !fromMe ? { participant } : {}) },
    message: { conversation: row?.text ?? '' },
  };
}

/**
 * Sends one agent (or bot) message through the line's live socket: one WhatsApp message per content part,
 * each with the id derived from the idempotency key; a quoted reply quotes the first. Answers the first
 * part's id (the external id). A socket error is transient: the delivery path retries it.
 */
export async function sendThroughSocket(deps: ChannelDeps, socket: QrSendSocket, channel: ChannelRecord, message: OutboundMessage): Promise<{ externalId?: string }> {
  const jid = jidOf(message.recipient);
  const contents = await qrContents(deps, message.content);
  const quoted = message.replyToExternalId ? await quotedOf(deps, channel, jid, message.replyToExternalId) : undefined;
  const key = message.idempotencyKey ?? `balcao-msg-${message.messageId}`;
  const ids: string[] = [];
  for (const [i, content] of contents.entries()) {
    try {
      const sent = await socket.sendMessage(jid, content, { messageId: qrMessageId(key, i), ...(i === 0 && quoted ? { quoted } : {}) });
      ids.push(sent?.key?.id ?? qrMessageId(key, i));
    } catch (err) {
      deps.logger.warn({ err, messageId: message.messageId, channelId: channel.id }, 'WhatsApp QR send failed');
      throw new ChannelSendError(QR_SEND_FAILED, { transient: true });
    }
  }
  return { externalId: ids[0] };
}

/** Runs a socket-bound operation on the live socket (where the line's socket lives). */
export async function runSocketOp(socket: QrSendSocket, op: QrSocketOp): Promise<QrSocketOpResult> {
  switch (op.kind) {
    case 'onWhatsApp': {
      const [hit] = (await socket.onWhatsApp(`${op.phone.replace(/\D/g, '')}@s.whatsapp.net`)) ?? [];
      return { exists: !!hit?.exists, jid: hit?.exists ? hit.jid : null };
    }
    case 'delete':
      await socket.sendMessage(op.jid, { delete: { remoteJid: op.jid, fromMe: true, id: op.id } });
      return { done: true };
    case 'composing':
      await socket.sendPresenceUpdate('composing', op.jid);
      return { done: true };
  }
}
