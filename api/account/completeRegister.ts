import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { INVALID_INVITE, lockToken, markTokenUsed } from '../auth/accountTokens';
import { findMembership, findOperator, findOperatorByEmail, isEmailUniqueViolation } from '../auth/queries';
import { sessionOrChallenge, type LoginOrChallengeView } from '../auth/twoFactorGate';
import type { CompleteRegisterReq } from '../auth/schema';
import { movePendingMember } from '../operators/pendingMembers';

export const INVITEE_HAS_ACCOUNT =
  'Este e-mail já tem uma conta no Balcão. Digite a senha dessa conta para aceitar o convite (ou use "Esqueci minha senha").';

/**
 * Finishes an invitation from its registration link (the pending member of pendingMembers.ts), logging the
 * person into the inviting workspace; the link reached the mailbox, so the e-mail counts as verified.
 * Nobody has a login at that address: the pending row becomes the account (name and password set).
 * Someone registered it since the invitation (signup is not blocked by it): the link turns into an
 * acceptance by that account, which must prove it with its own password (and its second factor, if it has one).
 */
export async function completeRegister(deps: AppDeps, input: CompleteRegisterReq): Promise<LoginOrChallengeView> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.knex.transaction(async (trx) => {
      const token = await lockToken(trx, 'invite', input.token);
      const op = token ? await findOperator(trx, token.operatorId) : undefined;
      const member = token?.workspaceId ? await findMembership(trx, token.workspaceId, token.operatorId) : undefined;
      if (!token || !op || op.verificationLevel !== 0 || op.email.toLowerCase() !== input.email || !member?.isActive) {
        throw errors.field('token', INVALID_INVITE);
      }
      const account = await findOperatorByEmail(trx, input.email);
      await markTokenUsed(trx, token.id);
      if (account) {
        if (!(await verifyPassword(account.passwordHash, input.password))) throw errors.field('password', INVITEE_HAS_ACCOUNT);
        await movePendingMember(trx, member.workspaceId, op.id, account.id);
        await trx('operators').where({ id: account.id, verificationLevel: 1 }).update({ verificationLevel: 2 });
        return sessionOrChallenge(deps, trx, account.id, member.workspaceId);
      }
      await trx('operators')
        .where({ id: op.id })
        .update({ name: input.name, passwordHash, verificationLevel: 2, updatedAt: trx.fn.now() });
      return sessionOrChallenge(deps, trx, op.id, member.workspaceId);
    });
  } catch (err) {
    // Someone signed up with the address between the check and the update: the link now needs their password.
    if (isEmailUniqueViolation(err)) throw errors.field('password', INVITEE_HAS_ACCOUNT);
    throw err;
  }
}
