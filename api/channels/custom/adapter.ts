import type { ChannelAdapter } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { outboundIdempotencyKey } from '../outbound/keys';
import { customLineOf } from './channel';
import { postCustomEvent } from './client';
import { signedFileUrl } from '../../conversations/presenters';

/**
 * The custom API channel (docs/channels/custom.md): every agent message is POSTed, signed, to the
 * company's endpoint through the outbound delivery path (remote: true → `channel-send:{messageId}`,
 * retried with backoff until the endpoint answers 2xx). The `webhook-id` is the message's idempotency
 * key, the same on every attempt, and becomes the message's external id (what `replyTo` names).
 * SPEC §4 allows reply and delete only on WhatsApp, Instagram and Telegram, so neither is offered here.
 */
export const customAdapter: ChannelAdapter = {
  type: 'custom',
  canReply: false,
  canDelete: false,
  remote: true,

  async send(deps, channel, message) {
    const line = customLineOf(deps.config, channel);
    if (!line) throw new ChannelSendError('Este canal customizado não tem endpoint configurado.', { transient: false });
    const fileUrl = signedFileUrl(deps.config);
    // Files go out as signed download links (never the storage key itself).
    const content = message.content.map((item) => {
      const file = (item as { file?: { key: string; fileName: string; mime: string; size: number } }).file;
      return file ? { file: { fileName: file.fileName, mime: file.mime, size: file.size, url: fileUrl(file.key) } } : item;
    });
    const key = message.idempotencyKey ?? outboundIdempotencyKey(message.messageId);
    await postCustomEvent(line.endpoint, line.secret, key, {
      type: 'message.created',
      data: {
        id: key,
        messageId: message.messageId,
        conversationId: message.conversationId,
        recipient: { id: message.recipient },
        content,
        text: message.text,
        replyTo: message.replyToExternalId ?? null,
        operator: message.operator ? { id: message.operator.id, name: message.operator.name } : null,
        createdAt: message.createdAt.toISOString(),
      },
    });
    return { externalId: key };
  },
};
