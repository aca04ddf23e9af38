import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { lockVisibleConversation } from '../conversations/queries';
import { publishConversationEvent } from '../conversations/fanout';
import { conversationView, type ConversationView } from '../conversations/presenters';

/**
 * Puts a visible conversation in a funnel stage of its workspace (null: out of every funnel). The stage is
 * the conversation's, not its call's: resolving and reopening keep it (docs/kanban.md). After commit everyone
 * who sees the conversation gets chat.callStatus with the new `stageId`, like any other change of it; the
 * same stage again changes and publishes nothing.
 */
export async function setConversationStage(deps: Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>, viewer: ConversationViewer, id: number, stageId: number | null): Promise<ConversationView> {
  const changed = await deps.knex.transaction(async (trx) => {
    const cp = await lockVisibleConversation(trx, viewer, id);
    const current = (await trx('customer_platforms').where({ id: cp.id }).first('stage_id')) as { stageId: number | null };
    if (current.stageId === stageId) return false;
    if (stageId !== null) {
      const stage = await trx('funnel_stages').where({ workspaceId: viewer.workspaceId, id: stageId }).first('id');
      if (!stage) throw errors.field('to', 'Etapa não encontrada.');
    }
    await trx('customer_platforms').where({ id: cp.id }).update({ stageId, updatedAt: trx.fn.now() });
    return true;
  });
  if (changed) await publishConversationEvent(deps, 'chat.callStatus', viewer.workspaceId, id);
  return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
}
