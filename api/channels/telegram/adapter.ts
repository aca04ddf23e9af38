import type { ChannelAdapter } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { readStoredFile } from '../outbound/storedFile';
import { deltaToWhatsappText, filesOf } from '../whatsapp/mapping';
import { callTelegram, type TelegramSentMessage } from './client';
import { externalIdOf, parseExternalId, requireLine } from './line';

type SendMethod = { method: 'sendPhoto'; field: 'photo' } | { method: 'sendVoice'; field: 'voice' } | { method: 'sendDocument'; field: 'document' };

/** Photos as photos (not webp/gif, which Telegram would flatten), any audio as a voice note, the rest as documents. */
export function sendMethodOf(mime: string): SendMethod {
  if (/^image\/(jpeg|png)$/.test(mime)) return { method: 'sendPhoto', field: 'photo' };
  if (mime.startsWith('audio/')) return { method: 'sendVoice', field: 'voice' };
  return { method: 'sendDocument', field: 'document' };
}

/**
 * Telegram lines (docs/channels/telegram.md). Text goes by sendMessage, each file by sendPhoto/sendVoice/
 * sendDocument (multipart, the text as the first file's caption up to Telegram's 1024 characters); a
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
    const text = deltaToWhatsappText(message.content);
    const files = filesOf(message.content);
    const chatId = message.recipient;
    if (!files.length) {
      if (!text) throw new ChannelSendError('Mensagem vazia.', { transient: false });
      const sent = await callTelegram<TelegramSentMessage>(deps.config, line.token, 'sendMessage', { chat_id: chatId, text, ...(replyParameters ? { reply_parameters: replyParameters } : {}) });
      return { externalId: externalIdOf(sent.chat.id, sent.message_id) };
    }
    const captionFits = text.length <= 1024;
    let first: string | undefined;
    for (const [i, file] of files.entries()) {
      const { method, field } = sendMethodOf(file.mime);
      const form = new FormData();
      form.set('chat_id', chatId);
      form.set(field, new Blob([await readStoredFile(deps, file.key)], { type: file.mime }), file.fileName);
      if (i === 0 && text && captionFits) form.set('caption', text);
      if (i === 0 && replyParameters) form.set('reply_parameters', JSON.stringify(replyParameters));
      const sent = await callTelegram<TelegramSentMessage>(deps.config, line.token, method, form);
      first ??= externalIdOf(sent.chat.id, sent.message_id);
    }
    if (text && !captionFits) await callTelegram<TelegramSentMessage>(deps.config, line.token, 'sendMessage', { chat_id: chatId, text });
    return { externalId: first };
  },

  async deleteMessage(deps, channel, externalId) {
    const ids = parseExternalId(externalId);
    if (!ids) return;
    await callTelegram<boolean>(deps.config, requireLine(deps.config, channel).token, 'deleteMessage', { chat_id: ids.chatId, message_id: ids.messageId });
  },

  async composing(deps, channel, recipient) {
    await callTelegram<boolean>(deps.config, requireLine(deps.config, channel).token, 'sendChatAction', { chat_id: recipient, action: 'typing' });
  },
};
