import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { lockToken, markTokenUsed, peekToken, type AccountTokenRow } from '../auth/accountTokens';
import { findMembership, findOperator, findWorkspace } from '../auth/queries';
import type { JoinWorkspaceReq } from '../auth/schema';
import { INVALID_INVITE } from '../auth/completeRegister';

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

async function join(trx: Knex.Transaction, token: AccountTokenRow) {
  const workspaceId = token.workspaceId as number;
  if (await findMembership(trx, workspaceId, token.operatorId)) throw errors.conflict('Você já faz parte deste workspace.');
  await trx('workspaceMembers').insert({
    workspaceId,
    operatorId: token.operatorId,
    accessLevel: token.accessLevel,
    invitedBy: token.invitedBy,
  });
  // The link reached the mailbox, so the e-mail is proven.
  await trx('operators').where({ id: token.operatorId, verificationLevel: 1 }).update({ verificationLevel: 2 });
  await markTokenUsed(trx, token.id);
}

/** POST /operators/join-workspace: accepts the invitation (the token works once). */
export async function acceptInvitation(deps: AppDeps, input: JoinWorkspaceReq) {
  return deps.knex.transaction(async (trx) => {
    const token = await lockToken(trx, 'invite', input.token);
    if (!matches(token, input)) throw errors.field('token', INVALID_INVITE);
    await join(trx, token);
    const ws = await findWorkspace(trx, input.workspaceId);
    return { workspaceId: input.workspaceId, workspace: ws?.name ?? '', accessLevel: token.accessLevel as number };
  });
}
