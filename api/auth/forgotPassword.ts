import type { AppDeps } from '../deps';
import { createAccountToken, revokeTokens } from './accountTokens';
import { findOperatorByEmail } from './queries';
import { resetPasswordMail, sendAfterCommit } from './mails';

export const FORGOT_PASSWORD_ANSWER = {
  message: 'Se este e-mail estiver cadastrado, você receberá um link para redefinir sua senha.',
};

/**
 * Issues a reset link to the registered operator who owns the address. Only the newest link works.
 * Pending invitations to the address (verificationLevel 0) are not its owner: they neither get a link nor
 * stop its registered operator from getting one; a person only invited sets a password from the
 * invitation link, or signs up.
 */
export async function forgotPassword(deps: AppDeps, email: string): Promise<void> {
  const op = await findOperatorByEmail(deps.knex, email);
  if (!op) return;
  const token = await deps.knex.transaction(async (trx) => {
    await revokeTokens(trx, op.id, 'reset_password');
    return createAccountToken(trx, { purpose: 'reset_password', operatorId: op.id });
  });
  sendAfterCommit(deps, resetPasswordMail(deps.config, { email: op.email, name: op.name }, token));
}
