import type { Knex } from 'knex';
import { errors } from '../http/errors';
import type { OperatorRow } from '../auth/queries';

/**
 * A pending member is how an invitation lives in the workspace until it is accepted: an operator row with
 * verificationLevel 0 and no password, created by that workspace's invitation (one per workspace and
 * address), a member at the level offered, in the groups chosen. It owns no address (the unique index on
 * operators' e-mail covers registered operators only), cannot log in, and shows in the members list with
 * the name and e-mail the inviter typed. When the address has, or gets, a registered operator, accepting
 * moves the pending member's place to that operator (movePendingMember); otherwise completing the
 * registration turns the pending row itself into the account.
 */

export const ALREADY_JOINED = 'Você já faz parte deste workspace.';

/** The pending member this workspace's invitation created for the address, if any. */
export async function findPendingInvitee(db: Knex, workspaceId: number, email: string): Promise<Pick<OperatorRow, 'id' | 'name' | 'email'> | undefined> {
  return db('operators')
    .join('workspaceMembers', 'workspaceMembers.operatorId', 'operators.id')
    .where('workspaceMembers.workspaceId', workspaceId)
    .where('operators.verificationLevel', 0)
    .whereRaw('lower(operators.email) = ?', [email.toLowerCase()])
    .orderBy('operators.id')
    .first('operators.id', 'operators.name', 'operators.email');
}

/**
 * Concurrent invitations of one address to one workspace queue here, so they find each other's pending
 * member instead of creating two.
 */
export async function lockInvitation(trx: Knex.Transaction, workspaceId: number, email: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`invite:${workspaceId}:${email.toLowerCase()}`]);
}

/** The groups of a member in this workspace become exactly `groupIds` (ids already checked to be the workspace's). */
export async function setInvitedGroups(trx: Knex.Transaction, workspaceId: number, operatorId: number, groupIds: number[]): Promise<void> {
  await trx('groupMembers').where({ workspaceId, operatorId }).delete();
  if (groupIds.length) await trx('groupMembers').insert(groupIds.map((groupId) => ({ workspaceId, groupId, operatorId })));
}

/** Adds the member to those of `groupIds` that still exist in the workspace (an invitation stored before groups were applied). */
export async function addToGroups(trx: Knex.Transaction, workspaceId: number, operatorId: number, groupIds: number[]): Promise<void> {
  if (!groupIds.length) return;
  const existing: number[] = await trx('groups').where({ workspaceId }).whereIn('id', groupIds).pluck('id');
  if (existing.length) {
    await trx('groupMembers')
      .insert(existing.map((groupId) => ({ workspaceId, groupId, operatorId })))
      .onConflict(['groupId', 'operatorId'])
      .ignore();
  }
}

/**
 * What may point at a pending member, moved to the account that accepts: the groups an admin put them in
 * and the conversations (and open calls) assigned to them. `test/operators/pendingMembers.test.ts` checks
 * this list and NEVER_PENDING against every foreign key to operators and workspace_members, so a new one
 * must be sorted into one of them.
 */
export const MOVED_REFERENCES = [
  ['group_members', 'operator_id'],
  ['customer_platforms', 'operator_id'],
  ['calls', 'operator_id'],
] as const;

/**
 * References a pending member cannot have: they are written by the operator acting (messages, notes, files,
 * phrases, saved filters, favourites, sessions, secrets, campaigns, contracts, invitations, report schedules, scheduled messages, the
 * devices an agent turned notifications on for, two-factor secrets, backup codes and sign-in challenges, the team
 * chat's rooms, room memberships, messages and read markers: a custom room takes only registered members,
 * a group's room follows group_members, docs/team-chat.md) or need them
 * online (automatic assignment); workspace_members and account_tokens are the membership and the
 * invitation themselves.
 */
export const NEVER_PENDING = [
  ['workspace_members', 'operator_id'],
  ['workspace_members', 'invited_by'],
  ['account_tokens', 'operator_id'],
  ['account_tokens', 'invited_by'],
  ['trial_grants', 'operator_id'],
  ['stored_files', 'operator_id'],
  ['call_labels', 'operator_id'],
  ['messages', 'operator_id'],
  ['api_secrets', 'created_by'],
  ['campaigns', 'operator_id'],
  ['contracts', 'operator_id'],
  ['quick_phrases', 'operator_id'],
  ['segments', 'operator_id'],
  ['segment_subscriptions', 'operator_id'],
  ['customer_platform_favorites', 'operator_id'],
  ['operator_sessions', 'operator_id'],
  ['calls', 'auto_assigned_operator_id'],
  ['assignment_rules', 'last_operator_id'],
  ['report_schedules', 'created_by'],
  ['push_subscriptions', 'operator_id'],
  ['scheduled_messages', 'operator_id'],
  ['operator_two_factor', 'operator_id'],
  ['operator_backup_codes', 'operator_id'],
  ['two_factor_challenges', 'operator_id'],
  ['team_rooms', 'created_by'],
  ['team_room_members', 'operator_id'],
  ['team_messages', 'author_id'],
  ['team_room_reads', 'operator_id'],
] as const;

/**
 * The account that owns the invited address takes the pending member's place in the workspace: a
 * membership at the pending member's current level (an admin may have changed it meanwhile), invited by
 * the same person, with its groups and assigned conversations. The pending row goes once no workspace's
 * invitation uses it. Resolves to the level the account joined at.
 */
export async function movePendingMember(trx: Knex.Transaction, workspaceId: number, pendingId: number, accountId: number): Promise<number> {
  const pending = await trx('workspaceMembers').where({ workspaceId, operatorId: pendingId }).first('accessLevel', 'isActive', 'invitedBy');
  if (!pending) throw errors.notFound();
  if (await trx('workspaceMembers').where({ workspaceId, operatorId: accountId }).first('operatorId')) throw errors.conflict(ALREADY_JOINED);
  await trx('workspaceMembers').insert({
    workspaceId,
    operatorId: accountId,
    accessLevel: pending.accessLevel,
    isActive: pending.isActive,
    invitedBy: pending.invitedBy,
  });
  for (const [table, column] of MOVED_REFERENCES) {
    await trx(table).where({ workspace_id: workspaceId, [column]: pendingId }).update({ [column]: accountId });
  }
  // A scheduled report names its recipients in an integer array (no foreign key, so not in MOVED_REFERENCES):
  // the account takes the pending member's place there too, once (it may be a recipient already).
  await trx.raw(
    `UPDATE report_schedules SET recipients = CASE WHEN :account = ANY (recipients) THEN array_remove(recipients, :pending) ELSE array_replace(recipients, :pending, :account) END
     WHERE workspace_id = :workspaceId AND :pending = ANY (recipients)`,
    { account: accountId, pending: pendingId, workspaceId },
  );
  await trx('workspaceMembers').where({ workspaceId, operatorId: pendingId }).delete();
  const stillInvited = await trx('workspaceMembers').where({ operatorId: pendingId }).first('workspaceId');
  if (!stillInvited) await trx('operators').where({ id: pendingId, verificationLevel: 0 }).delete();
  return pending.accessLevel;
}
