import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import { conversationView, tagsOfCalls, type ConversationView } from '../conversations/presenters';
import { setConversationStatus } from '../inbox/setConversationStatus';
import { setConversationTags } from '../inbox/setConversationTags';
import { assignToSelf, transferToGroup, transferToOperator } from '../inbox/transferConversation';
import { MAX_TAGS_PER_CALL } from '../inbox/schema';
import { errors } from '../http/errors';
import { columnOf, loadBoard } from './columns';
import { NONE_COLUMN, type KanbanMoveReq } from './schema';
import { setConversationStage } from './setConversationStage';

/**
 * POST /kanban/move: a card dropped on another column is the inbox's own command for that change, so its
 * events, webhooks and realtime publishes are exactly the inbox's (docs/kanban.md "Moves"):
 *
 * - status: 'resolved' resolves ('Resolver'); 'waiting' reopens a resolved one and unassigns it ('Não
 *   atribuído'); 'active' reopens a resolved one and, when nobody has it, assigns it to the caller.
 * - group: transfers to the group, or 'Sem Grupo' for the 'none' column.
 * - tag: the tag of the column it left (`from`) is taken off the current call and the new column's put on;
 *   'none' clears the call's tags.
 * - stage: puts it in the stage, or takes it out of the funnel for 'none'.
 *
 * The conversation must be visible (another workspace's or a hidden one is a 404) and `to` a column of that
 * board (a 400 on `to` otherwise, also for another workspace's tag, group or stage). Dropping a card on its
 * own column changes nothing. Answers the conversation as the caller now sees it.
 */
export async function moveCard(deps: AppDeps, viewer: ConversationViewer, input: KanbanMoveReq): Promise<ConversationView> {
  const conversation = await findVisibleConversation(deps.knex, viewer, input.id);
  const board = await loadBoard(deps.knex, viewer.workspaceId, input.groupBy, input.funnelId);
  columnOf(board, input.to, 'to');
  if (input.from) columnOf(board, input.from, 'from');
  const id = conversation.id;

  switch (input.groupBy) {
    case 'status': {
      if (input.to === 'resolved') return setConversationStatus(deps, viewer, id, { status: 'resolve' });
      let current = conversation.isFinished ? await setConversationStatus(deps, viewer, id, { status: 'open' }) : undefined;
      const operatorId = current ? current.operatorId : conversation.operatorId;
      if (input.to === 'waiting' && operatorId !== null) current = await transferToOperator(deps, viewer, id, null);
      if (input.to === 'active' && operatorId === null) current = await assignToSelf(deps, viewer, id);
      return current ?? conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
    }
    case 'group': {
      const groupId = input.to === NONE_COLUMN ? null : Number(input.to);
      return transferToGroup(deps, viewer, id, groupId);
    }
    case 'tag': {
      if (conversation.currentCallId === null) throw errors.field('id', 'A conversa ainda não tem atendimento.');
      const tags = ((await tagsOfCalls(deps.knex, [conversation.currentCallId])).get(conversation.currentCallId) ?? []).map((t) => t.id);
      let next: number[];
      if (input.to === NONE_COLUMN) next = [];
      else {
        const from = input.from && input.from !== NONE_COLUMN ? Number(input.from) : null;
        const to = Number(input.to);
        next = [...tags.filter((t) => t !== from && t !== to), to];
      }
      if (next.length > MAX_TAGS_PER_CALL) throw errors.field('to', `Um atendimento pode ter no máximo ${MAX_TAGS_PER_CALL} etiquetas.`);
      if (next.length === tags.length && next.every((t) => tags.includes(t))) return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
      return setConversationTags(deps, viewer, { id, tags: next, callId: conversation.currentCallId });
    }
    case 'stage': {
      const stageId = input.to === NONE_COLUMN ? null : Number(input.to);
      // 'Sem etapa' of this funnel: a conversation in another funnel's stage is already there.
      if (stageId === null && (conversation.stageId === null || !board.stageIds.includes(conversation.stageId))) {
        return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
      }
      return setConversationStage(deps, viewer, id, stageId);
    }
  }
}
