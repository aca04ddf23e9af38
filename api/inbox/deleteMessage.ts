import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { adapterFor } from '../channels/adapter';
import { MessageType } from '../models/Message';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation, loadChannel } from '../conversations/queries';
import { publishMessageStatus } from '../conversations/fanout';
import { findMessageView, signedFileUrl, type MessageView } from '../conversations/presenters';

export const CANNOT_DELETE_ON_CHANNEL = 'Não é possível apagar mensagens neste canal.';
export const CANNOT_DELETE_CUSTOMER_MESSAGE = 'Não é possível apagar mensagens do cliente.';

/**
 * DELETE /inbox/messages/:messageId. SPEC §4: deleting reaches the customer only on WhatsApp and Telegram
 * (adapter.canDelete), so elsewhere the call is refused; a private note never left the team and can be
 * removed on any channel. The provider is asked first: if it refuses, the message stays as it was.
 * The row stays, with isDeleted and empty content (the UI shows 'Mensagem removida').
 */
export async function deleteMessage(deps: AppDeps, viewer: ConversationViewer, messageId: number): Promise<MessageView> {
  const message = await deps.knex('messages')
    .where({ workspaceId: viewer.workspaceId, id: messageId })
    .first('id', 'customer_platform_id', 'external_id', 'type', 'sender', 'status', 'is_deleted');
  if (!message) throw errors.notFound('Mensagem não encontrada.');
  const conversation = await findVisibleConversation(deps.knex, viewer, message.customerPlatformId);
  const fileUrl = signedFileUrl(deps.config);

  if (!message.isDeleted) {
    if (message.type !== MessageType.PRIVATE) {
      if (message.sender === 'customer') throw errors.badRequest(CANNOT_DELETE_CUSTOMER_MESSAGE);
      const channel = await loadChannel(deps.knex, viewer.workspaceId, conversation.channelId);
      const adapter = adapterFor(channel.type);
      if (!adapter?.canDelete || adapter.canDeleteOn?.(channel) === false) throw errors.badRequest(CANNOT_DELETE_ON_CHANNEL);
      if (message.externalId && adapter.deleteMessage) {
        try {
          await adapter.deleteMessage(deps, channel, message.externalId);
        } catch (err) {
          deps.logger.error({ err, messageId }, 'channel adapter failed to delete a message');
          throw errors.unavailable('Não foi possível apagar a mensagem no canal. Tente novamente.');
        }
      }
    }
    await deps.knex('messages')
      .where({ id: message.id })
      .update({ isDeleted: true, content: '[]', text: '', updatedAt: deps.knex.fn.now() });
    await publishMessageStatus(deps, conversation, message.id, message.status, { isDeleted: true });
  }
  const view = await findMessageView(deps.knex, viewer.workspaceId, message.id, { customerAvatar: conversation.avatar, fileUrl });
  if (!view) throw errors.notFound('Mensagem não encontrada.');
  return view;
}
