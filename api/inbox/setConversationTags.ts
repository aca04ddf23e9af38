import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { lockVisibleConversation } from '../conversations/queries';
import { publishConversationEvent } from '../conversations/fanout';
import { conversationView, type ConversationView } from '../conversations/presenters';
import type { ConversationTagsReq } from './schema';

/** PUT /inbox/tag: the tags of the current call (or of `callId`, one of this conversation's calls) become exactly `tags`. */
export async function setConversationTags(deps: AppDeps, viewer: ConversationViewer, input: ConversationTagsReq): Promise<ConversationView> {
  await deps.knex.transaction(async (trx) => {
    const cp = await lockVisibleConversation(trx, viewer, input.id);
    const callId = input.callId ?? cp.currentCallId;
    if (callId === null) throw errors.field('callId', 'A conversa ainda não tem atendimento.');
    const call = await trx('calls').where({ id: callId, customerPlatformId: cp.id }).first('id');
    if (!call) throw errors.field('callId', 'Atendimento não encontrado.');
    if (input.tags.length) {
      const found = await trx('labels').where({ workspaceId: viewer.workspaceId }).whereIn('id', input.tags).select('id');
      if (found.length !== input.tags.length) throw errors.field('tags', 'Etiqueta não encontrada.');
    }
    await trx('call_labels').where({ callId }).whereNotIn('label_id', input.tags).delete();
    if (input.tags.length) {
      await trx('call_labels')
        .insert(input.tags.map((labelId) => ({ workspaceId: viewer.workspaceId, callId, labelId, operatorId: viewer.operatorId })))
        .onConflict(['call_id', 'label_id'])
        .ignore();
    }
  });
  await publishConversationEvent(deps, 'chat.callStatus', viewer.workspaceId, input.id);
  return conversationView(deps.knex, viewer.workspaceId, input.id, viewer.operatorId);
}
