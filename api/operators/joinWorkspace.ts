import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { lockToken, markTokenUsed, peekToken, type AccountTokenRow } from '../auth/accountTokens';
import { findMembership, findOperator, findOperatorByEmail, findWorkspace } from '../auth/queries';
import type { JoinWorkspaceReq } from '../auth/schema';
import { INVALID_INVITE } from '../auth/accountTokens';
import { ALREADY_JOINED, addToGroups, movePendingMember } from './pendingMembers';
import { assertWithinLimit } from '../billing/limits';

/** The link names operator and workspace; a token for another pair is as invalid as a forged one. */
function matches(token: AccountTokenRow | undefined, input: JoinWorkspaceReq): token is AccountTokenRow {
  return !!token && token.operatorId === input.operatorId && token.workspaceId === input.workspaceId && token.accessLevel !== null;
}

/** GET /operators/join-workspace: who invited and to which workspace, for the accept page. */
export async function invitationInfo(deps: AppDeps, input: JoinWorkspaceReq) {
  const token = await peekToken(deps.knex, 'invite', input.token);
  if (!matches(token, input)) throw errors.field('token', INVALID_INVITE);
  const [inviter, ws] = await Promise.all([
    token.invitedBy ? findOperator(deps.knex, token.invitedBy) : undefined,
    findWorkspace(deps.knex, input.workspaceId),
  ]);
  if (!ws) throw errors.field('token', INVALID_INVITE);
  return { operatorName: inviter?.name ?? null, operatorAvatar: inviter?.avatar ?? null, workspace: ws.name, workspaceAvatar: ws.avatar };
}

/**
 * The operator who accepts: for an invitation to a pending member (pendingMembers.ts), the registered
 * operator who owns its address now (they may have signed up after being invited); for an invitation
 * stored before pending members existed, the registered operator it names.
 */
async function accept(trx: Knex.Transaction, token: AccountTokenRow): Promise<{ accountId: number; accessLevel: number }> {
  const workspaceId = token.workspaceId as number;
  const invitee = await findOperator(trx, token.operatorId);
  if (!invitee) throw errors.field('token', INVALID_INVITE);
  let joined: { accountId: number; accessLevel: number };
  if (invitee.verificationLevel === 0) {
    const pending = await findMembership(trx, workspaceId, invitee.id);
    const account = await findOperatorByEmail(trx, invitee.email);
    // No login for the address: the registration link of the same invitation is the way in.
    if (!pending?.isActive || !account) throw errors.field('token', INVALID_INVITE);
    // At the pending member's current level (an admin may have changed it since the invitation).
    joined = { accountId: account.id, accessLevel: await movePendingMember(trx, workspaceId, invitee.id, account.id) };
  } else {
    if (await findMembership(trx, workspaceId, invitee.id)) throw errors.conflict(ALREADY_JOINED);
    await assertWithinLimit(trx, workspaceId, 'agents');
    const accessLevel = token.accessLevel as number;
    await trx('workspaceMembers').insert({ workspaceId, operatorId: invitee.id, accessLevel, invitedBy: token.invitedBy });
    await addToGroups(trx, workspaceId, invitee.id, token.data.groups ?? []);
    joined = { accountId: invitee.id, accessLevel };
  }
  await markTokenUsed(trx, token.id);
  // The link reached the mailbox, so the e-mail is proven.
  await trx('operators').where({ id: joined.accountId, verificationLevel: 1 }).update({ verificationLevel: 2 });
  return joined;
}

/** POST /operators/join-workspace: accepts the invitation (the token works once). */
export async function acceptInvitation(deps: AppDeps, input: JoinWorkspaceReq) {
  return deps.knex.transaction(async (trx) => {
    const token = await lockToken(trx, 'invite', input.token);
    if (!matches(token, input)) throw errors.field('token', INVALID_INVITE);
    const { accessLevel } = await accept(trx, token);
    const ws = await findWorkspace(trx, input.workspaceId);
    return { workspaceId: input.workspaceId, workspace: ws?.name ?? '', accessLevel };
  });
}
