import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { publishConversationEvent } from '../conversations/fanout';
import { AssignmentRule } from '../models/AssignmentRule';
import { scoped } from '../db/scope';
import { operatorsWhoCanSee } from '../policy/conversations';
import { applyAssignment, pickAssignee } from './assignNewCall';

/** A conversation whose assignment changed, with who could see it before (for chat.conversationRemoved). */
export interface Reassigned {
  conversationId: number;
  visibleBefore: number[];
}

/** Announces reassigned conversations after commit, like a transfer: chat.callStatus, and chat.conversationRemoved for whoever lost them. */
export async function publishReassigned(deps: Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>, workspaceId: number, moved: Reassigned[]): Promise<void> {
  for (const a of moved) await publishConversationEvent(deps, 'chat.callStatus', workspaceId, a.conversationId, { visibleBefore: a.visibleBefore });
}

interface Waiting {
  id: number;
  channelId: number;
  operatorId: number;
  groupId: number | null;
}

/**
 * docs/assignment.md "When an agent becomes unavailable": the agent's **unanswered round-robin calls** —
 * open calls the rotation gave them (`calls.auto_assigned_operator_id`), still assigned to them, with no
 * reply yet (`first_response_at IS NULL`) — go back to the rotation: each to the next eligible agent of the
 * channel's active group rule (the agent themselves excluded), or, with nobody eligible or no such rule any
 * more, unassigned in their group (the backlog the next agent to come online picks up). `groupIds` limits it
 * to those groups' calls (the agent left a group). Calls they answered, took or were transferred stay theirs.
 *
 * Lock order is the backlog's: the channels' rules first (one query, by id), then the conversations with
 * SKIP LOCKED — one an inbound message or a reply is holding is left as it is this time.
 */
export async function redistributeFrom(
  trx: Knex.Transaction,
  workspaceId: number,
  operatorId: number,
  options: { groupIds?: number[] } = {},
  now: Date = new Date(),
): Promise<Reassigned[]> {
  const candidates = (): Knex.QueryBuilder => {
    const q = trx('customer_platforms as cp')
      .join('calls as c', 'c.id', 'cp.current_call_id')
      .where({ 'cp.workspace_id': workspaceId, 'cp.operator_id': operatorId, 'cp.is_finished': false })
      .where({ 'c.auto_assigned_operator_id': operatorId, 'c.is_finished': false })
      .whereNull('c.first_response_at');
    if (options.groupIds) q.whereIn('cp.group_id', options.groupIds);
    return q;
  };
  const channels: number[] = (await candidates().distinct('cp.channel_id')).map((r: { channelId: number }) => r.channelId);
  if (!channels.length) return [];

  const rules = (await scoped(AssignmentRule, { workspaceId }, trx)
    .modify('active')
    .whereRaw(`(assignment_rules.rules->>'workspacePlatformId')::int = ANY(?)`, [channels])
    .orderBy('assignment_rules.id')
    .forUpdate()) as AssignmentRule[];
  // The rule that decides a channel is its first active one (by sort, then id), as for a new call.
  const ruleOf = new Map<number, AssignmentRule>();
  for (const r of [...rules].sort((a, b) => a.sort - b.sort || a.id - b.id)) {
    const channel = Number(r.rules.workspacePlatformId);
    if (!ruleOf.has(channel)) ruleOf.set(channel, r);
  }

  const waiting: Waiting[] = await candidates()
    .orderBy('c.created_at')
    .orderBy('cp.id')
    .forUpdate('cp')
    .skipLocked()
    .select('cp.id', 'cp.channel_id', 'cp.operator_id', 'cp.group_id');
  const moved: Reassigned[] = [];
  for (const cp of waiting) {
    const visibleBefore = await operatorsWhoCanSee(trx, workspaceId, cp);
    const rule = ruleOf.get(cp.channelId);
    const rotates = rule && rule.rules.operator == null && rule.rules.group != null && rule.rules.group === cp.groupId;
    const target = rotates ? await pickAssignee(trx, rule, now, { exclude: operatorId }) : { operatorId: null, groupId: cp.groupId, byRotation: false };
    await applyAssignment(trx, cp.id, { ...target, groupId: cp.groupId });
    moved.push({ conversationId: cp.id, visibleBefore });
  }
  return moved;
}
