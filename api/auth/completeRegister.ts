import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { hashPassword } from './passwords';
import { lockToken, markTokenUsed } from './accountTokens';
import { findMembership, findOperator } from './queries';
import { issueSession } from './issueSession';
import type { CompleteRegisterReq } from './schema';
import type { LoginView } from './presenters';

export const INVALID_INVITE = 'Convite inválido ou expirado. Peça um novo convite ao administrador do workspace.';

/**
 * Finishes the registration of an invited person (verificationLevel 0): name and password are set, the
 * e-mail counts as verified (the link reached it), and they are logged into the inviting workspace.
 */
export async function completeRegister(deps: AppDeps, input: CompleteRegisterReq): Promise<LoginView> {
  const passwordHash = await hashPassword(input.password);
  return deps.knex.transaction(async (trx) => {
    const token = await lockToken(trx, 'invite', input.token);
    const op = token ? await findOperator(trx, token.operatorId) : undefined;
    const member = token?.workspaceId ? await findMembership(trx, token.workspaceId, token.operatorId) : undefined;
    if (!token || !op || op.verificationLevel !== 0 || op.email.toLowerCase() !== input.email || !member?.isActive) {
      throw errors.field('token', INVALID_INVITE);
    }
    await trx('operators')
      .where({ id: op.id })
      .update({ name: input.name, passwordHash, verificationLevel: 2, updatedAt: trx.fn.now() });
    await markTokenUsed(trx, token.id);
    return issueSession(deps, trx, op.id, member.workspaceId);
  });
}
