import type { ChannelAdapter, ChannelDeps, OutboundMessage } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { readStoredFile } from '../outbound/storedFile';
import { SentParts } from '../outbound/sentParts';
import { cloudLineOf, type CloudLine } from './cloudLine';
import { sendGraphMessage, uploadGraphMedia } from './client';
import { deltaToPlainText, filesOf } from '../content';
import { mediaKindOf } from './mapping';
import { isCloudConfig } from './schema';
import { sendCloudTyping } from './cloudTyping';
import { composingQr, deleteQr, routeQr, sendQr } from './qr/qrTransport';
import { storedTemplateOf } from './templates';

/**
 * The files of a message Meta already accepted (their `wamid`s), for the message's next attempt: a rate
 * limit (130429) or a 5xx on the second file must not send the first one again.
 */
const partsSent = new SentParts<string>(24 * 3600_000);

/**
 * Cloud API send: text as `text`, each file uploaded to the line's media endpoint and sent as the media
 * kind its type names (audio arrives as a voice note; the first file carries the text as caption where
 * WhatsApp allows one). A quoted reply sends `context.message_id`. The first message id is the external id.
 * A retried attempt skips the files Meta accepted before (`partsSent`).
 */
async function sendCloud(deps: ChannelDeps, line: CloudLine, message: OutboundMessage): Promise<{ externalId?: string }> {
  const context = message.replyToExternalId ? { context: { message_id: message.replyToExternalId } } : {};
  const text = deltaToPlainText(message.content);
  const files = filesOf(message.content);
  if (!files.length) {
    if (!text) throw new ChannelSendError('Mensagem vazia.', { transient: false });
    return { externalId: await sendGraphMessage(deps.config, line, { to: message.recipient, type: 'text', text: { preview_url: false, body: text }, ...context }) };
  }
  const key = String(message.messageId);
  const ids = partsSent.of(key);
  for (const [i, file] of files.entries()) {
    if (i < ids.length) continue;
    const kind = mediaKindOf(file.mime);
    const mediaId = await uploadGraphMedia(deps.config, line, { bytes: await readStoredFile(deps, file.key), mime: file.mime, fileName: file.fileName });
    const media: Record<string, unknown> = { id: mediaId };
    if (kind === 'document') media.filename = file.fileName;
    // Meta shows a voice message (voice icon, auto-download, transcription) only for Ogg/Opus with voice: true;
    // the inbox stores recorded notes as Ogg/Opus (docs/voice-notes.md).
    if (kind === 'audio' && /^audio\/ogg\b/.test(file.mime)) media.voice = true;
    if (i === 0 && text && kind !== 'audio' && kind !== 'sticker') media.caption = text;
    ids.push(await sendGraphMessage(deps.config, line, { to: message.recipient, type: kind, [kind]: media, ...(i === 0 ? context : {}) }));
  }
  partsSent.done(key);
  return { externalId: ids[0] };
}

/**
 * WhatsApp lines (docs/channels/whatsapp.md), one adapter for both transports: `config.provider` picks
 * Cloud API (here) or QR (api/channels/whatsapp/qr/qrTransport.ts: the line's one live socket, reached
 * through the worker that holds it). Every agent and bot message goes through the outbound delivery path
 * (remote: true). Delete for everyone exists only on QR lines: the Cloud API has no call to delete a sent
 * message.
 */
export const whatsappAdapter: ChannelAdapter = {
  type: 'whatsapp',
  canReply: true,
  canDelete: true,
  remote: true,

  async send(deps, channel, message) {
    const line = cloudLineOf(deps.config, channel);
    if (line) {
      // A template message (outside the 24-hour window) goes as `type: template` (api/channels/whatsapp/templates.ts).
      const template = await storedTemplateOf(deps, message.messageId);
      if (template) return { externalId: await sendGraphMessage(deps.config, line, { to: message.recipient, type: 'template', template }) };
      return sendCloud(deps, line, message);
    }
    return sendQr(deps, channel, message);
  },

  async route(deps, channel) {
    return isCloudConfig(channel.config) ? null : routeQr(deps, channel);
  },

  canDeleteOn(channel) {
    return !isCloudConfig(channel.config);
  },

  async deleteMessage(deps, channel, externalId) {
    if (isCloudConfig(channel.config)) throw new ChannelSendError('A API oficial do WhatsApp não apaga mensagens enviadas.', { transient: false });
    await deleteQr(deps, channel, externalId);
  },

  async composing(deps, channel, recipient) {
    const line = cloudLineOf(deps.config, channel);
    if (line) await sendCloudTyping(deps, channel, line, recipient);
    else await composingQr(deps, channel, recipient);
  },
};
