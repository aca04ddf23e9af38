import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import { conversationView, type ConversationView } from '../conversations/presenters';

/** POST /inbox/conversations/:id/read: opening a chat clears its new-message flag (SPEC §4). */
export async function readConversation(deps: Pick<AppDeps, 'knex'>, viewer: ConversationViewer, id: number): Promise<ConversationView> {
  const conversation = await findVisibleConversation(deps.knex, viewer, id);
  if (conversation.hasNewMessages) {
    await deps.knex('customer_platforms').where({ id: conversation.id, hasNewMessages: true }).update({ hasNewMessages: false });
  }
  return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
}
