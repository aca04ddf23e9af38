import type { AppDeps } from '../deps';
import { authorize, grantableLevels, type Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { createAccountToken, revokeTokens } from '../auth/accountTokens';
import { findMembership, findOperator, findOperatorByEmail, findWorkspace } from '../auth/queries';
import { inviteJoinMail, inviteRegisterMail, sendAfterCommit } from '../auth/mails';
import type { InviteOperatorReq } from '../auth/schema';
import { presentInvitation } from './presenters';
import { LEVEL_NOT_GRANTABLE } from './updateMember';
import { findPendingInvitee, lockInvitation, setInvitedGroups } from './pendingMembers';
import { assertWithinLimit } from '../billing/limits';

export const ALREADY_MEMBER = 'Este e-mail já faz parte do workspace.';

/**
 * POST /operator. Whoever the address belongs to, the workspace gets the same pending member (the name and
 * e-mail typed, the level, the groups; pendingMembers.ts) and the inviter the same answer, so an invitation
 * tells nothing about people outside the workspace. Only the mail differs, read by the address's owner
 * alone: a link to accept for someone with a login, a link to complete the registration otherwise. Inviting
 * an address that is still pending here again renews that invitation (older links stop working).
 */
export async function inviteOperator(deps: AppDeps, actor: Actor, input: InviteOperatorReq) {
  authorize(actor, 'members.manage');
  if (!grantableLevels(actor).includes(input.accessLevel)) throw errors.field('accessLevel', LEVEL_NOT_GRANTABLE);
  const { mail, answer } = await deps.knex.transaction(async (trx) => {
    const inviter = await findOperator(trx, actor.operatorId);
    const ws = await findWorkspace(trx, actor.workspaceId);
    if (!inviter || !ws) throw errors.authentication();
    await lockInvitation(trx, ws.id, input.email);
    const account = await findOperatorByEmail(trx, input.email);
    if (account && (await findMembership(trx, ws.id, account.id))) throw errors.conflict(ALREADY_MEMBER, 'email');
    // Groups are rows of this workspace: another workspace's group ids are as unknown as missing ones.
    const groups = [...new Set(input.groups ?? [])];
    if (groups.length) {
      const found = await trx('groups').where({ workspaceId: ws.id }).whereIn('id', groups).count({ n: '*' }).first();
      if (Number(found?.n) !== groups.length) throw errors.notFound();
    }

    const member = { accessLevel: input.accessLevel, isActive: true, invitedBy: actor.operatorId };
    let pendingId: number;
    const pending = await findPendingInvitee(trx, ws.id, input.email);
    // A new invitee takes an agent of the plan; renewing an invitation that still holds one does not.
    if (!pending || !(await findMembership(trx, ws.id, pending.id))?.isActive) await assertWithinLimit(trx, ws.id, 'agents');
    if (pending) {
      pendingId = pending.id;
      await trx('operators').where({ id: pendingId }).update({ name: input.name, updatedAt: trx.fn.now() });
      await trx('workspaceMembers').where({ workspaceId: ws.id, operatorId: pendingId }).update(member);
      await revokeTokens(trx, pendingId, 'invite', ws.id);
    } else {
      const [row] = await trx('operators').insert({ name: input.name, email: input.email, verificationLevel: 0 }).returning('id');
      pendingId = row.id;
      await trx('workspaceMembers').insert({ workspaceId: ws.id, operatorId: pendingId, ...member });
    }
    await setInvitedGroups(trx, ws.id, pendingId, groups);
    const token = await createAccountToken(trx, {
      purpose: 'invite',
      operatorId: pendingId,
      workspaceId: ws.id,
      accessLevel: input.accessLevel,
      invitedBy: actor.operatorId,
      data: { groups },
    });
    const context = { inviterName: inviter.name, workspaceName: ws.name, workspaceId: ws.id };
    const to = { email: input.email, name: input.name, operatorId: pendingId };
    const mail = account ? inviteJoinMail(deps.config, to, context, token) : inviteRegisterMail(deps.config, to, context, token);
    return { mail, answer: presentInvitation(pendingId, input, groups) };
  });
  sendAfterCommit(deps, mail);
  return answer;
}
