import type { AppDeps } from '../deps';
import { authorize, grantableLevels, type Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { createAccountToken, revokeTokens } from '../auth/accountTokens';
import { findMembership, findOperator, findOperatorByEmail, findWorkspace } from '../auth/queries';
import { inviteJoinMail, inviteRegisterMail, sendAfterCommit } from '../auth/mails';
import type { MailMessage } from '../mail/mailer';
import type { InviteOperatorReq } from '../auth/schema';
import { presentAgent } from './presenters';
import { LEVEL_NOT_GRANTABLE } from './updateMember';

export const ALREADY_MEMBER = 'Este e-mail já faz parte do workspace.';

/**
 * POST /operator. Someone new gets an operator row without password (verificationLevel 0) and a membership
 * now, and a link to complete the registration. Someone with a login gets a link to accept; the
 * membership is created when they do, at the level stored on the invitation.
 */
export async function inviteOperator(deps: AppDeps, actor: Actor, input: InviteOperatorReq) {
  authorize(actor, 'members.manage');
  if (!grantableLevels(actor).includes(input.accessLevel)) throw errors.field('accessLevel', LEVEL_NOT_GRANTABLE);
  const { mail, answer } = await deps.knex.transaction(async (trx) => {
    const inviter = await findOperator(trx, actor.operatorId);
    const ws = await findWorkspace(trx, actor.workspaceId);
    if (!inviter || !ws) throw errors.authentication();
    const context = { inviterName: inviter.name, workspaceName: ws.name, workspaceId: ws.id };
    let op = await findOperatorByEmail(trx, input.email);
    if (op && (await findMembership(trx, ws.id, op.id))) throw errors.conflict(ALREADY_MEMBER, 'email');
    // Groups are rows of this workspace: another workspace's group ids are as unknown as missing ones.
    const groups = [...new Set(input.groups ?? [])];
    if (groups.length) {
      const found = await trx('groups').where({ workspaceId: ws.id }).whereIn('id', groups).count({ n: '*' }).first();
      if (Number(found?.n) !== groups.length) throw errors.notFound();
    }
    const tokenFields = {
      purpose: 'invite' as const,
      workspaceId: ws.id,
      accessLevel: input.accessLevel,
      invitedBy: actor.operatorId,
      data: { groups },
    };

    if (!op || op.verificationLevel === 0) {
      if (!op) {
        const [row] = await trx('operators').insert({ name: input.name, email: input.email, verificationLevel: 0 }).returning('id');
        op = (await findOperator(trx, row.id))!;
      }
      const member = { accessLevel: input.accessLevel, isActive: true };
      await trx('workspaceMembers').insert({ workspaceId: ws.id, operatorId: op.id, ...member, invitedBy: actor.operatorId });
      const token = await createAccountToken(trx, { ...tokenFields, operatorId: op.id });
      const mail: MailMessage = inviteRegisterMail(deps.config, { email: op.email, name: op.name }, context, token);
      return { mail, answer: { ...presentAgent(op, member), invitation: 'register' as const } };
    }

    // A newer invitation to the same workspace replaces the older one.
    await revokeTokens(trx, op.id, 'invite', ws.id);
    const token = await createAccountToken(trx, { ...tokenFields, operatorId: op.id });
    const mail = inviteJoinMail(deps.config, { email: op.email, name: op.name, operatorId: op.id }, context, token);
    return { mail, answer: { ...presentAgent(op, { accessLevel: input.accessLevel, isActive: false }), invitation: 'join' as const } };
  });
  sendAfterCommit(deps, mail);
  return answer;
}
