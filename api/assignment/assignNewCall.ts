import type { Knex } from 'knex';
import { AssignmentRule } from '../models/AssignmentRule';
import { scoped } from '../db/scope';
import { eligibleAgents, nextAfter } from './queries';

export interface NewCall {
  workspaceId: number;
  channelId: number;
  conversationId: number;
  callId: number;
}

export interface Assignment {
  ruleId: number;
  operatorId: number | null;
  groupId: number | null;
}

type RuleTarget = AssignmentRule['rules'] & { businessHours?: number | null };

export interface AssignmentTarget {
  operatorId: number | null;
  groupId: number | null;
}

/** A pick of a rule: `byRotation` when the group's round-robin chose the agent (not a rule's fixed agent). */
export interface RulePick extends AssignmentTarget {
  byRotation: boolean;
}

/**
 * Picks the assignee of a rule's next conversation. The caller holds the rule row lock, so the cursor read
 * and its advance are one step for every concurrent caller: that is what keeps the rotation fair. A group
 * or a fixed agent the rule names that no longer exists (deleted group, member removed or deactivated) is
 * left out rather than written onto the conversation. `exclude` keeps an agent out of this pick (the one a
 * conversation is being taken from).
 */
export async function pickAssignee(trx: Knex.Transaction, rule: AssignmentRule, now: Date, options: { exclude?: number } = {}): Promise<RulePick> {
  const target = rule.rules as RuleTarget;
  const groupId = target.group != null && (await trx('groups').where({ workspaceId: rule.workspaceId, id: target.group }).first('id')) ? target.group : null;
  if (target.operator != null) {
    const member = await trx('workspace_members').where({ workspaceId: rule.workspaceId, operatorId: target.operator, isActive: true }).first('operator_id');
    return { operatorId: member ? target.operator : null, groupId, byRotation: false };
  }
  if (groupId === null) return { operatorId: null, groupId: null, byRotation: false };
  const eligible = (await eligibleAgents(trx, rule.workspaceId, groupId, target.businessHours, now)).filter((id) => id !== options.exclude);
  const operatorId = nextAfter(eligible, rule.lastOperatorId) ?? null;
  if (operatorId !== null) {
    await trx('assignment_rules').where({ id: rule.id }).update({ lastOperatorId: operatorId, lastAssignedAt: now });
    rule.lastOperatorId = operatorId;
  }
  return { operatorId, groupId, byRotation: operatorId !== null };
}

/**
 * Writes the assignment on the conversation and on its open call (reports follow the call). The call keeps
 * which agent the rotation picked (`auto_assigned_operator_id`): while it is still theirs and unanswered,
 * it goes back to the rotation when they become unavailable (redistribute.ts).
 */
export async function applyAssignment(trx: Knex.Transaction, conversationId: number, target: AssignmentTarget & { byRotation?: boolean }): Promise<void> {
  const columns = { operatorId: target.operatorId, groupId: target.groupId };
  await trx('customer_platforms').where({ id: conversationId }).update({ ...columns, updatedAt: trx.fn.now() });
  await trx('calls')
    .where({ customerPlatformId: conversationId, isFinished: false })
    .update({ ...columns, autoAssignedOperatorId: target.byRotation ? target.operatorId : null });
}

/**
 * Auto-assignment of a call that was just opened, inside the inbound transaction (its chat.newCall is
 * published after commit and already shows the assignee). The first active rule of the channel decides:
 * its agent, or its group with a round-robin pick among the group's eligible agents; with nobody eligible
 * the conversation waits unassigned in the group (the backlog, see setOperatorOnline.ts).
 */
export async function assignNewCall(trx: Knex.Transaction, call: NewCall, now: Date = new Date()): Promise<Assignment | null> {
  const rule = (await scoped(AssignmentRule, { workspaceId: call.workspaceId }, trx).modify('active').modify('forChannel', call.channelId).forUpdate().first()) as AssignmentRule | undefined;
  if (!rule) return null;
  const target = await pickAssignee(trx, rule, now);
  if (target.operatorId === null && target.groupId === null) return null;
  await applyAssignment(trx, call.conversationId, target);
  return { ruleId: rule.id, ...target };
}
