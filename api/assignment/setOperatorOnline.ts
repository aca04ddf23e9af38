import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { AssignmentRule } from '../models/AssignmentRule';
import { scoped } from '../db/scope';
import { operatorsWhoCanSee } from '../policy/conversations';
import { publishConversationEvent } from '../conversations/fanout';
import { applyAssignment, pickAssignee } from './assignNewCall';

type PresenceDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

const PRESENCE_CLIENT = 'presence';

interface Assigned {
  conversationId: number;
  visibleBefore: number[];
}

/**
 * Hands the waiting conversations of every active group rule the agent belongs to out by the same
 * round-robin as new calls, oldest call first. Conversations another transaction holds (an inbound
 * message being stored) are skipped rather than waited for: that transaction decides their assignment.
 */
export async function assignBacklog(trx: Knex.Transaction, workspaceId: number, operatorId: number, now: Date = new Date()): Promise<Assigned[]> {
  const rules = (await scoped(AssignmentRule, { workspaceId }, trx)
    .modify('active')
    .whereRaw(`assignment_rules.rules->>'operator' IS NULL`)
    .whereRaw(
      `(assignment_rules.rules->>'group')::int IN (SELECT group_id FROM group_members WHERE workspace_id = ? AND operator_id = ?)`,
      [workspaceId, operatorId],
    )
    .forUpdate()) as AssignmentRule[];
  const assigned: Assigned[] = [];
  for (const rule of rules) {
    const waiting: { id: number; operatorId: null; groupId: number }[] = await trx('customer_platforms as cp')
      .join('calls as c', 'c.id', 'cp.current_call_id')
      .where({ 'cp.workspace_id': workspaceId, 'cp.channel_id': rule.rules.workspacePlatformId, 'cp.group_id': rule.rules.group, 'cp.is_finished': false })
      .whereNull('cp.operator_id')
      .where('c.is_finished', false)
      .orderBy('c.created_at')
      .orderBy('cp.id')
      .forUpdate('cp')
      .skipLocked()
      .select('cp.id', 'cp.operator_id', 'cp.group_id');
    for (const cp of waiting) {
      const target = await pickAssignee(trx, rule, now);
      if (target.operatorId === null) break;
      const visibleBefore = await operatorsWhoCanSee(trx, workspaceId, cp);
      await applyAssignment(trx, cp.id, target);
      assigned.push({ conversationId: cp.id, visibleBefore });
    }
  }
  return assigned;
}

/**
 * Presence of an operator in their workspace (`workspace_members.is_online`, history in operator_sessions).
 * Coming online picks up the backlog of the rules of their groups; the conversations handed out are
 * announced with chat.callStatus after commit, like a transfer.
 */
export async function setOperatorOnline(deps: PresenceDeps, actor: Pick<Actor, 'workspaceId' | 'operatorId'>, online: boolean): Promise<{ online: boolean; assigned: number[] }> {
  const { workspaceId, operatorId } = actor;
  const assigned = await deps.knex.transaction(async (trx) => {
    await trx('workspace_members').where({ workspaceId, operatorId }).update({ isOnline: online, lastSeenAt: trx.fn.now() });
    const open = trx('operator_sessions').where({ workspaceId, operatorId, clientId: PRESENCE_CLIENT }).whereNull('disconnected_at');
    if (!online) {
      await open.update({ disconnectedAt: trx.fn.now(), lastSeenAt: trx.fn.now() });
      return [];
    }
    if (!(await open.clone().first('id'))) await trx('operator_sessions').insert({ workspaceId, operatorId, clientId: PRESENCE_CLIENT });
    return assignBacklog(trx, workspaceId, operatorId);
  });
  for (const a of assigned) await publishConversationEvent(deps, 'chat.callStatus', workspaceId, a.conversationId, { visibleBefore: a.visibleBefore });
  return { online, assigned: assigned.map((a) => a.conversationId) };
}
