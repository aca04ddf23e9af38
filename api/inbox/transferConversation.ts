import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { isAccessLevel } from '../policy/levels';
import { canSeeConversation, loadViewer, operatorsWhoCanSee, type ConversationViewer } from '../policy/conversations';
import { lockVisibleConversation, type PlatformRow } from '../conversations/queries';
import { publishConversationEvent } from '../conversations/fanout';
import { conversationView, type ConversationView } from '../conversations/presenters';

type Change = { operatorId: number | null } | { groupId: number | null };

/**
 * The assignee may be any active member who could see the conversation without being its assignee, i.e.
 * given its group (SPEC §6: group conversations only to members; admins see everything). Anyone else, and
 * ids of other workspaces, are the same field error: the optimistic UI rolls back on it.
 */
async function checkAssignee(trx: Knex.Transaction, cp: PlatformRow, operatorId: number): Promise<void> {
  const member = await trx('workspace_members').where({ workspaceId: cp.workspaceId, operatorId, isActive: true }).first('access_level');
  if (!member || !isAccessLevel(member.accessLevel)) throw errors.field('operatorId', 'Agente não encontrado.');
  const target = await loadViewer(trx, { workspaceId: cp.workspaceId, operatorId, accessLevel: member.accessLevel });
  if (!canSeeConversation(target, { workspaceId: cp.workspaceId, operatorId: null, groupId: cp.groupId })) {
    throw errors.field('operatorId', 'Este agente não tem acesso às conversas deste grupo.');
  }
}

async function checkGroup(trx: Knex.Transaction, workspaceId: number, groupId: number): Promise<void> {
  const group = await trx('groups').where({ workspaceId, id: groupId }).first('id');
  if (!group) throw errors.field('groupId', 'Grupo não encontrado.');
}

/**
 * Changes the assignee or the group of a visible conversation and of its open call (reports follow the
 * call). After commit, everyone who may see it gets chat.callStatus and whoever could see it before and
 * no longer can gets chat.conversationRemoved.
 */
async function transfer(deps: AppDeps, viewer: ConversationViewer, id: number, change: Change, checkTarget: boolean): Promise<ConversationView> {
  const outcome = await deps.knex.transaction(async (trx) => {
    const cp = await lockVisibleConversation(trx, viewer, id);
    const next = 'operatorId' in change ? { operatorId: change.operatorId, groupId: cp.groupId } : { operatorId: cp.operatorId, groupId: change.groupId };
    if (next.operatorId === cp.operatorId && next.groupId === cp.groupId) return undefined;
    if (checkTarget && 'operatorId' in change && change.operatorId !== null) await checkAssignee(trx, cp, change.operatorId);
    if ('groupId' in change && change.groupId !== null) await checkGroup(trx, viewer.workspaceId, change.groupId);
    const visibleBefore = await operatorsWhoCanSee(trx, viewer.workspaceId, cp);
    await trx('customer_platforms').where({ id: cp.id }).update({ ...next, updatedAt: trx.fn.now() });
    await trx('calls').where({ customerPlatformId: cp.id, isFinished: false }).update(next);
    return { visibleBefore };
  });
  if (outcome) await publishConversationEvent(deps, 'chat.callStatus', viewer.workspaceId, id, { visibleBefore: outcome.visibleBefore });
  return conversationView(deps.knex, viewer.workspaceId, id, viewer.operatorId);
}

/** POST /calls/transfer-operator: null unassigns ('Não atribuído'). */
export function transferToOperator(deps: AppDeps, viewer: ConversationViewer, id: number, operatorId: number | null): Promise<ConversationView> {
  return transfer(deps, viewer, id, { operatorId }, true);
}

/** POST /calls/transfer-group: null leaves every group ('Sem Grupo'). */
export function transferToGroup(deps: AppDeps, viewer: ConversationViewer, id: number, groupId: number | null): Promise<ConversationView> {
  return transfer(deps, viewer, id, { groupId }, true);
}

/** POST /inbox/assignment: the caller takes a conversation they can see. */
export function assignToSelf(deps: AppDeps, viewer: ConversationViewer, id: number): Promise<ConversationView> {
  return transfer(deps, viewer, id, { operatorId: viewer.operatorId }, false);
}
