import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { AssignmentRule } from '../models/AssignmentRule';
import { scoped } from '../db/scope';
import { operatorsWhoCanSee } from '../policy/conversations';
import { applyAssignment, pickAssignee } from './assignNewCall';
import { publishReassigned, redistributeFrom, type Reassigned } from './redistribute';
import { scheduleHandBack } from './handBackAbsent';
import { publishMemberAvailability } from './availabilityEvent';

type PresenceDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

const PRESENCE_CLIENT = 'presence';

type Assigned = Reassigned;

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
    .orderBy('assignment_rules.id')
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
 * Coming online picks up the backlog of the rules of their groups; going offline hands their unanswered
 * round-robin calls back to the rotation (redistribute.ts) — at once when `presenceGraceMs` is 0, else once
 * they have stayed away that long (handBackAbsent.ts). Either way the conversations that moved are
 * announced after commit, and so is the presence itself (`member.availability` to the workspace). `assigned` lists what the agent received, `redistributed` what they gave back.
 */
export async function setOperatorOnline(
  deps: PresenceDeps,
  actor: Pick<Actor, 'workspaceId' | 'operatorId'>,
  online: boolean,
): Promise<{ online: boolean; assigned: number[]; redistributed: number[] }> {
  const { workspaceId, operatorId } = actor;
  const { assigned, redistributed, availability } = await deps.knex.transaction(async (trx) => {
    const [member] = await trx('workspace_members').where({ workspaceId, operatorId }).update({ isOnline: online, lastSeenAt: trx.fn.now() }).returning('availability');
    const availability = (member?.availability ?? 'online') as 'online' | 'ausente';
    const open = trx('operator_sessions').where({ workspaceId, operatorId, clientId: PRESENCE_CLIENT }).whereNull('disconnected_at');
    if (!online) {
      await open.update({ disconnectedAt: trx.fn.now(), lastSeenAt: trx.fn.now() });
      // With a grace period the calls are handed back later, if the agent is still away (handBackAbsent.ts).
      if (deps.config.presenceGraceMs > 0) return { assigned: [], redistributed: [], availability };
      // In a savepoint: going offline is recorded even if handing the calls back fails (logged).
      const redistributed = await trx
        .transaction((sp) => redistributeFrom(sp, workspaceId, operatorId))
        .catch((err: unknown) => {
          deps.logger.error({ err, workspaceId, operatorId }, 'redistribution on going offline failed');
          return [];
        });
      return { assigned: [], redistributed, availability };
    }
    if (!(await open.clone().first('id'))) await trx('operator_sessions').insert({ workspaceId, operatorId, clientId: PRESENCE_CLIENT });
    // An agent who is 'ausente' takes nothing when they connect: the backlog waits for 'online'.
    return { assigned: availability === 'online' ? await assignBacklog(trx, workspaceId, operatorId) : [], redistributed: [], availability };
  });
  await publishReassigned(deps, workspaceId, [...assigned, ...redistributed]);
  await publishMemberAvailability(deps, workspaceId, { operatorId, availability, online });
  if (!online && deps.config.presenceGraceMs > 0) scheduleHandBack(deps, workspaceId, operatorId, deps.config.presenceGraceMs);
  return { online, assigned: assigned.map((a) => a.conversationId), redistributed: redistributed.map((a) => a.conversationId) };
}
