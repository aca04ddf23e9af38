import type { ChannelAdapter } from '../adapter';
import { SentParts } from '../outbound/sentParts';
import { ChannelSendError } from '../sendErrors';
import { readStoredFile } from '../outbound/storedFile';
import { deltaToPlainText, filesOf } from '../content';
import { callTelegram, type TelegramSentMessage } from './client';
import { externalIdOfPieces, parseExternalId, requireLine } from './line';

/** The Telegram messages a message already became, for its next attempt after a piece was refused. */
const piecesSent = new SentParts<{ chatId: string; id: number }>(60 * 60_000);

type SendMethod = { method: 'sendPhoto'; field: 'photo' } | { method: 'sendVoice'; field: 'voice' } | { method: 'sendDocument'; field: 'document' };

/** sendPhoto: "The photo must be at most 10 MB in size." */
export const PHOTO_LIMIT_BYTES = 10 * 1024 * 1024;
/** sendVoice: "your audio must be in an .OGG file encoded with OPUS, or in .MP3 format, or in .M4A format". */
const VOICE_MIMES = new Set(['audio/ogg', 'audio/opus', 'audio/mpeg', 'audio/mp4', 'audio/x-m4a', 'audio/m4a']);
/** sendMessage: "Text of the message to be sent, 1-4096 characters". */
export const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;

/**
 * Photos as photos (jpeg/png up to 10 MB; not webp/gif, which Telegram would flatten), audio Telegram plays
 * as a voice note (OGG/Opus, MP3, M4A) as voice, the rest — larger photos and other audio included — as documents.
 */
export function sendMethodOf(mime: string, size = 0): SendMethod {
  const type = mime.split(';')[0].trim().toLowerCase();
  if (/^image\/(jpeg|png)$/.test(type) && size <= PHOTO_LIMIT_BYTES) return { method: 'sendPhoto', field: 'photo' };
  if (VOICE_MIMES.has(type)) return { method: 'sendVoice', field: 'voice' };
  return { method: 'sendDocument', field: 'document' };
}

/** A text in pieces sendMessage takes (4096 UTF-16 units at most), never cutting a surrogate pair; prefers a line break. */
export function textPieces(text: string, limit = TEXT_LIMIT): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = limit;
    const lineBreak = rest.lastIndexOf('\n', limit - 1);
    if (lineBreak >= limit / 2) cut = lineBreak + 1;
    else if (/[\uD800-\uDBFF]/.test(rest[cut - 1])) cut -= 1;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * Telegram lines (docs/channels/telegram.md). Text goes by sendMessage (in pieces of 4096), each file by
 * sendPhoto/sendVoice/sendDocument (multipart, the text as the first file's caption up to Telegram's 1024 characters); a
 * quoted reply sends `reply_parameters`. The external id is `{chat id}:{message id}` of the first message.
 */
export const telegramAdapter: ChannelAdapter = {
  type: 'telegram',
  canReply: true,
  canDelete: true,
  remote: true,

  async send(deps, channel, message) {
    const line = requireLine(deps.config, channel);
    const quoted = message.replyToExternalId ? parseExternalId(message.replyToExternalId) : undefined;
    const replyParameters = quoted ? { message_id: quoted.messageId, allow_sending_without_reply: true } : undefined;
    const text = deltaToPlainText(message.content);
    const files = filesOf(message.content);
    const chatId = message.recipient;
    /**
     * Every Telegram message this one became, in order: the first is its external id, all are deleted with it.
     * An attempt refused half-way (a 429 on the second file) leaves what went out in `piecesSent`, and the next
     * attempt goes on from there, so no piece reaches the customer twice.
     */
    const key = `${channel.id}:${message.messageId}`;
    const sent = piecesSent.of(key);
    const already = sent.length;
    let step = 0;
    const call = async (method: string, body: () => Promise<Record<string, unknown> | FormData>) => {
      if (step++ < already) return;
      const result = await callTelegram<TelegramSentMessage>(deps.config, line.token, method, await body());
      sent.push({ chatId: String(result.chat.id), id: result.message_id });
    };
    const sendText = async (withReply: boolean) => {
      for (const [i, piece] of textPieces(text).entries()) {
        await call('sendMessage', async () => ({ chat_id: chatId, text: piece, ...(i === 0 && withReply && replyParameters ? { reply_parameters: replyParameters } : {}) }));
      }
    };
    if (!files.length) {
      if (!text) throw new ChannelSendError('Mensagem vazia.', { transient: false });
      await sendText(true);
    } else {
      const captionFits = text.length <= CAPTION_LIMIT;
      for (const [i, file] of files.entries()) {
        const bytes = await readStoredFile(deps, file.key);
        const { method, field } = sendMethodOf(file.mime, bytes.length);
        await call(method, async () => {
          const form = new FormData();
          form.set('chat_id', chatId);
          form.set(field, new Blob([bytes], { type: file.mime }), file.fileName);
          if (i === 0 && text && captionFits) form.set('caption', text);
          if (i === 0 && replyParameters) form.set('reply_parameters', JSON.stringify(replyParameters));
          return form;
        });
      }
      if (text && !captionFits) await sendText(false);
    }
    piecesSent.done(key);
    return { externalId: sent.length ? externalIdOfPieces(sent[0].chatId, sent.map((p) => p.id)) : undefined };
  },

  /** Deletes the message and, when it went out in several (files, long text), every piece its external id names. */
  async deleteMessage(deps, channel, externalId) {
    const ids = parseExternalId(externalId);
    if (!ids) return;
    const token = requireLine(deps.config, channel).token;
    for (const messageId of ids.messageIds) await callTelegram<boolean>(deps.config, token, 'deleteMessage', { chat_id: ids.chatId, message_id: messageId });
  },

  async composing(deps, channel, recipient) {
    await callTelegram<boolean>(deps.config, requireLine(deps.config, channel).token, 'sendChatAction', { chat_id: recipient, action: 'typing' });
  },
};
