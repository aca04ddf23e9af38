import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import { publishMessageStatus } from '../conversations/fanout';
import { findMessageView, signedFileUrl, type MessageView } from '../conversations/presenters';
import { startChannelSend } from '../channels/outbound/startChannelSend';

export const NOT_RETRYABLE = 'Só é possível reenviar uma mensagem que falhou.';

/**
 * POST /inbox/messages/{messageId}/retry (docs/outbound.md): a message whose delivery failed goes back to
 * `pending` with a fresh attempt count and its `channel-send:{messageId}` workflow starts again (replacing
 * the finished run). Only a failed message of a conversation the agent can see; anything else is a 400 on
 * `messageId` (another workspace's or an invisible conversation's message is a 404).
 */
export async function retryMessage(deps: AppDeps, viewer: ConversationViewer, messageId: number): Promise<MessageView> {
  const row = await deps.knex('messages').where({ id: messageId, workspaceId: viewer.workspaceId }).first('id', 'customer_platform_id', 'status');
  if (!row) throw errors.notFound();
  const conversation = await findVisibleConversation(deps.knex, viewer, row.customerPlatformId);
  const updated = await deps.knex('messages')
    .where({ id: messageId, deliveryState: 'failed' })
    .update({ deliveryState: 'pending', deliveryError: null, deliveryAttempts: 0, deliveryStartedAt: null, updatedAt: deps.knex.fn.now() });
  if (!updated) throw errors.field('messageId', NOT_RETRYABLE);
  await publishMessageStatus(deps, { workspaceId: viewer.workspaceId, id: conversation.id, operatorId: conversation.operatorId, groupId: conversation.groupId }, messageId, row.status, {
    deliveryState: 'pending',
    deliveryError: null,
  });
  await startChannelSend(deps, messageId, { replace: true });
  const view = await findMessageView(deps.knex, viewer.workspaceId, messageId, { fileUrl: signedFileUrl(deps.config) });
  if (!view) throw errors.notFound();
  return view;
}
