import type { AppDeps } from '../deps';
import { startChannelSend } from '../channels/outbound/startChannelSend';
import { publishConversationEvent, publishMessageStatus } from '../conversations/fanout';
import { presentWidgetMessage } from '../channels/widget/presentWidgetMessage';
import { widgetFileUrl } from '../channels/widget/fileUrl';
import { MessageStatus } from '../models/Message';
import { topics } from '../realtime/publisher';
import type { CsatRequested } from './requestCsat';

type Deps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

/**
 * After the resolve committed: the team sees the question (or the note saying why it was not sent); a
 * channel with a remote side gets it through `channel-send:{messageId}` (retries, never twice: docs/outbound.md,
 * and the worker's sweep starts it if this start is lost); the widget gets it on the visitor's topic with
 * its `csat` part, so the box draws the rating buttons (a visitor offline reads it from GET /v1/widget/messages).
 */
export async function deliverCsatRequest(deps: Deps, req: CsatRequested): Promise<void> {
  const { conversation: cp, channel, messageId } = req;
  await publishConversationEvent(deps, 'chat.newMessage', cp.workspaceId, cp.id, { messageId });
  if (!req.sent) return;
  if (req.remote) {
    await startChannelSend(deps, messageId);
    return;
  }
  if (channel.type !== 'widget') return;
  try {
    const m = await deps.knex('messages').where({ id: messageId }).first('id', 'content', 'type', 'sender', 'created_at', 'extra_data');
    const event = presentWidgetMessage({ ...m, operator: null }, (key, fileName) => widgetFileUrl(deps, key, fileName));
    await deps.publisher.publish(topics.widget(channel.identifier, cp.externalId), 'chat.widgetNewMessage', event);
    await deps.knex('messages').where({ id: messageId, status: MessageStatus.SENT }).update({ status: MessageStatus.RECEIVED, externalId: `w-${messageId}`, updatedAt: deps.knex.fn.now() });
    await publishMessageStatus(deps, cp, messageId, MessageStatus.RECEIVED);
  } catch (err) {
    // The question is stored: the visitor reads it from GET /v1/widget/messages when the box opens or reconnects.
    deps.logger.warn({ err, messageId }, 'csat question not published to the widget');
  }
}
