import type { ChannelAdapter } from '../adapter';
import { MessageType } from '../../models/Message';
import { topics } from '../../realtime/publisher';
import { presentWidgetMessage } from './presentWidgetMessage';
import { widgetFileUrl } from './fileUrl';

/** Message types a visitor may ever receive: agents' messages and the bot's. */
const DELIVERABLE = new Set<number>([MessageType.COMMON, MessageType.BOT]);

/**
 * The website chat widget (docs/widget.md). Delivering is publishing on the visitor's own MQTT topic,
 * `widget/{channel identifier}/{visitor id}`; a visitor who is offline reads the message from
 * GET /v1/widget/messages when the widget opens or reconnects. There is no provider message id: the
 * external id is derived from ours.
 */
export const widgetAdapter: ChannelAdapter = {
  type: 'widget',
  canReply: false,
  canDelete: false,

  async send(deps, channel, message) {
    // The inbox never sends team notes to a channel; this is the last guard before one would leave the team.
    if (!DELIVERABLE.has(message.type)) throw new Error(`O widget não entrega mensagens do tipo ${message.type}.`);
    const event = presentWidgetMessage(
      {
        id: message.messageId,
        content: message.content,
        type: message.type,
        createdAt: message.createdAt,
        sender: message.type === MessageType.BOT ? 'bot' : 'operator',
        operator: message.operator,
      },
      (key, fileName) => widgetFileUrl(deps, key, fileName),
    );
    await deps.publisher.publish(topics.widget(channel.identifier, message.recipient), 'chat.widgetNewMessage', event);
    return { externalId: `w-${message.messageId}` };
  },

  async composing(deps, channel, recipient) {
    await deps.publisher.publish(topics.widget(channel.identifier, recipient), 'chat.composing', { composing: true });
  },
};
