import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { AccessLevelValue } from '../policy/levels';
import { operatorsWhoCanSee, type ConversationViewer } from '../policy/conversations';
import { publishViewerChange, VIEWER_CHANGE_LIMIT } from '../conversations/fanout';
import { publishReassigned, redistributeFrom, type Reassigned } from './redistribute';
import { assignBacklog } from './setOperatorOnline';

type ChangeDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

/**
 * What follows a change of who an agent is (docs/assignment.md, docs/visibility.md "Live re-fan-out"): the
 * engine side runs in its own transaction after the change committed, and what moved is published after
 * that. None of these throw: the change itself has happened, a failure here is logged.
 */

export interface MemberState {
  accessLevel: number;
  isActive: boolean;
}

async function groupsOf(deps: ChangeDeps, workspaceId: number, operatorId: number): Promise<number[]> {
  const rows: { groupId: number }[] = await deps.knex('group_members').where({ workspaceId, operatorId }).select('group_id');
  return rows.map((r) => r.groupId);
}

/**
 * The agent can no longer take calls (deactivated; or, with `groupIds`, removed from those groups): their
 * unanswered round-robin calls go back to the rotation, and everyone concerned is told.
 */
export async function handBackCalls(deps: ChangeDeps, workspaceId: number, operatorId: number, options: { groupIds?: number[] } = {}): Promise<number[]> {
  try {
    const moved = await deps.knex.transaction((trx) => redistributeFrom(trx, workspaceId, operatorId, options));
    await publishReassigned(deps, workspaceId, moved);
    return moved.map((m) => m.conversationId);
  } catch (err) {
    deps.logger.error({ err, workspaceId, operatorId }, 'redistribution failed');
    return [];
  }
}

/**
 * PUT /operator/:id committed. Deactivated: their calls go back to the rotation (they receive nothing more:
 * inactive members are never recipients). Level changed while active: the conversations the new level
 * shows or hides are re-published to them.
 */
export async function afterMemberChange(deps: ChangeDeps, workspaceId: number, operatorId: number, before: MemberState, after: MemberState): Promise<void> {
  if (before.isActive && !after.isActive) {
    await handBackCalls(deps, workspaceId, operatorId);
    return;
  }
  if (!after.isActive || before.accessLevel === after.accessLevel) return;
  try {
    const groupIds = await groupsOf(deps, workspaceId, operatorId);
    const viewer = (accessLevel: number): ConversationViewer => ({ workspaceId, operatorId, accessLevel: accessLevel as AccessLevelValue, groupIds });
    await publishViewerChange(deps, workspaceId, operatorId, { before: before.isActive ? viewer(before.accessLevel) : null, after: viewer(after.accessLevel) });
  } catch (err) {
    deps.logger.error({ err, workspaceId, operatorId }, 'level change re-publish failed');
  }
}

/**
 * A group's member set was saved. Removed members hand back their unanswered round-robin calls of the group;
 * added members who are online pick up its waiting backlog with everyone else in turn; then each added or
 * removed (active) member is sent the group's conversations they gained or lost.
 */
export async function afterGroupMembersChange(deps: ChangeDeps, workspaceId: number, groupId: number, change: { added: number[]; removed: number[] }): Promise<void> {
  const touched = [...change.added, ...change.removed];
  if (!touched.length) return;
  for (const operatorId of change.removed) await handBackCalls(deps, workspaceId, operatorId, { groupIds: [groupId] });
  try {
    const online: { operatorId: number }[] = await deps.knex('workspace_members')
      .where({ workspaceId, isActive: true, isOnline: true })
      .whereIn('operator_id', change.added)
      .orderBy('operator_id')
      .select('operator_id');
    for (const { operatorId } of online) {
      const moved = await deps.knex.transaction((trx) => assignBacklog(trx, workspaceId, operatorId));
      await publishReassigned(deps, workspaceId, moved);
    }
    const members: { operatorId: number; accessLevel: AccessLevelValue }[] = await deps.knex('workspace_members')
      .where({ workspaceId, isActive: true })
      .whereIn('operator_id', touched)
      .orderBy('operator_id')
      .select('operator_id', 'access_level');
    for (const m of members) {
      const now = await groupsOf(deps, workspaceId, m.operatorId);
      const was = change.added.includes(m.operatorId) ? now.filter((g) => g !== groupId) : [...now.filter((g) => g !== groupId), groupId];
      const viewer = (groupIds: number[]): ConversationViewer => ({ workspaceId, operatorId: m.operatorId, accessLevel: m.accessLevel, groupIds });
      await publishViewerChange(deps, workspaceId, m.operatorId, { before: viewer(was), after: viewer(now) }, { groupIds: [groupId] });
    }
  } catch (err) {
    deps.logger.error({ err, workspaceId, groupId }, 'group membership re-fan-out failed');
  }
}

/**
 * Inside the delete of a group, before it goes: its conversations (open first, newest first, at most
 * VIEWER_CHANGE_LIMIT) with who sees them now. The delete clears their group (ON DELETE SET NULL), which
 * shows them to some and hides them from others; publish the result with `publishReassigned` after commit.
 */
export async function conversationsLeavingGroup(trx: Knex.Transaction, workspaceId: number, groupId: number): Promise<Reassigned[]> {
  const rows: { id: number; operatorId: number | null; groupId: number }[] = await trx('customer_platforms')
    .where({ workspaceId, groupId })
    .orderBy('is_finished')
    .orderBy('last_message_at', 'desc')
    .orderBy('id', 'desc')
    .limit(VIEWER_CHANGE_LIMIT)
    .select('id', 'operator_id', 'group_id');
  const out: Reassigned[] = [];
  for (const cp of rows) out.push({ conversationId: Number(cp.id), visibleBefore: await operatorsWhoCanSee(trx, workspaceId, cp) });
  return out;
}
