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

/**
 * Picks the assignee of a rule's next conversation. The caller holds the rule row lock, so the cursor read
 * and its advance are one step for every concurrent caller: that is what keeps the rotation fair.
 */
export async function pickAssignee(trx: Knex.Transaction, rule: AssignmentRule, now: Date): Promise<{ operatorId: number | null; groupId: number | null }> {
  const target = rule.rules as RuleTarget;
  const groupId = target.group ?? null;
  if (target.operator != null) return { operatorId: target.operator, groupId };
  if (groupId === null) return { operatorId: null, groupId: null };
  const operatorId = nextAfter(await eligibleAgents(trx, rule.workspaceId, groupId, target.businessHours, now), rule.lastOperatorId) ?? null;
  if (operatorId !== null) {
    await trx('assignment_rules').where({ id: rule.id }).update({ lastOperatorId: operatorId, lastAssignedAt: now });
    rule.lastOperatorId = operatorId;
  }
  return { operatorId, groupId };
}

/** Writes the assignment on the conversation and on its open call (reports follow the call). */
export async function applyAssignment(trx: Knex.Transaction, conversationId: number, target: { operatorId: number | null; groupId: number | null }): Promise<void> {
  await trx('customer_platforms').where({ id: conversationId }).update({ ...target, updatedAt: trx.fn.now() });
  await trx('calls').where({ customerPlatformId: conversationId, isFinished: false }).update(target);
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
