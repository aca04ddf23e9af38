import type { AppDeps } from '../deps';
import type { AppError } from '../http/errors';
import { adapterFor } from '../channels/adapter';
import { topics } from '../realtime/publisher';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation, loadChannel } from '../conversations/queries';

/** The UI debounces at 1 s (SPEC §7); more than this from one operator is not typing. */
const OPERATOR_LIMIT = { hits: 120, windowMs: 60_000 };
const PER_CONVERSATION_MS = 1000;

/**
 * POST /integrations/composing: "agent is typing" to the customer, at most once per second per
 * conversation (extra calls are answered and dropped), through the channel adapter's typing indicator;
 * a widget visitor gets chat.composing on `widget/{identifier}/{visitorId}`. Failures are logged only.
 */
export async function sendComposing(deps: AppDeps, viewer: ConversationViewer, conversationId: number): Promise<void> {
  await deps.rateLimiter.hit(`composing:operator:${viewer.workspaceId}:${viewer.operatorId}`, OPERATOR_LIMIT.hits, OPERATOR_LIMIT.windowMs);
  const conversation = await findVisibleConversation(deps.knex, viewer, conversationId);
  try {
    await deps.rateLimiter.hit(`composing:conversation:${conversation.id}`, 1, PER_CONVERSATION_MS);
  } catch (err) {
    if ((err as AppError).status === 429) return;
    throw err;
  }
  try {
    const adapter = adapterFor(conversation.channelType);
    if (adapter?.composing) {
      await adapter.composing(deps, await loadChannel(deps.knex, viewer.workspaceId, conversation.channelId), conversation.externalId);
    } else if (conversation.channelType === 'widget') {
      // The visitor's topic needs no adapter (docs/api/inbox.md "Widget").
      await deps.publisher.publish(topics.widget(conversation.channelIdentifier, conversation.externalId), 'chat.composing', { composing: true });
    }
  } catch (err) {
    deps.logger.warn({ err, conversationId }, 'composing indicator not delivered');
  }
}
