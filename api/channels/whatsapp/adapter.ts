import type { ChannelAdapter, ChannelDeps, ChannelRecord, OutboundMessage } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { readStoredFile } from '../outbound/storedFile';
import { cloudLineOf, type CloudLine } from './cloudLine';
import { sendGraphMessage, uploadGraphMedia } from './client';
import { deltaToWhatsappText, filesOf, mediaKindOf } from './mapping';

/**
 * Cloud API send: text as `text`, each file uploaded to the line's media endpoint and sent as the media
 * kind its type names (audio arrives as a voice note; the first file carries the text as caption where
 * WhatsApp allows one). A quoted reply sends `context.message_id`. The first message id is the external id.
 */
async function sendCloud(deps: ChannelDeps, line: CloudLine, message: OutboundMessage): Promise<{ externalId?: string }> {
  const context = message.replyToExternalId ? { context: { message_id: message.replyToExternalId } } : {};
  const text = deltaToWhatsappText(message.content);
  const files = filesOf(message.content);
  const ids: string[] = [];
  if (!files.length) {
    if (!text) throw new ChannelSendError('Mensagem vazia.', { transient: false });
    ids.push(await sendGraphMessage(deps.config, line, { to: message.recipient, type: 'text', text: { preview_url: false, body: text }, ...context }));
    return { externalId: ids[0] };
  }
  for (const [i, file] of files.entries()) {
    const kind = mediaKindOf(file.mime);
    const mediaId = await uploadGraphMedia(deps.config, line, { bytes: await readStoredFile(deps, file.key), mime: file.mime, fileName: file.fileName });
    const media: Record<string, unknown> = { id: mediaId };
    if (kind === 'document') media.filename = file.fileName;
    if (i === 0 && text && kind !== 'audio' && kind !== 'sticker') media.caption = text;
    ids.push(await sendGraphMessage(deps.config, line, { to: message.recipient, type: kind, [kind]: media, ...(i === 0 ? context : {}) }));
  }
  return { externalId: ids[0] };
}

/**
 * WhatsApp lines (docs/channels/whatsapp.md), one adapter for both transports: `config.provider` picks
 * Cloud API (here) or QR (api/channels/whatsapp/qr, which registers its sender with `setQrSender`).
 * Every agent message goes through the outbound delivery path (remote: true).
 */
let qrSender: ((deps: ChannelDeps, channel: ChannelRecord, message: OutboundMessage) => Promise<{ externalId?: string }>) | undefined;

export function setQrSender(sender: typeof qrSender): void {
  qrSender = sender;
}

export const whatsappAdapter: ChannelAdapter = {
  type: 'whatsapp',
  canReply: true,
  canDelete: true,
  remote: true,

  async send(deps, channel, message) {
    const line = cloudLineOf(deps.config, channel);
    if (line) return sendCloud(deps, line, message);
    if (qrSender) return qrSender(deps, channel, message);
    throw new ChannelSendError('Esta linha de WhatsApp ainda não está conectada.', { transient: true });
  },
};
