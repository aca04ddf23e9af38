import type { AppDeps } from '../deps';
import { createAccountToken, revokeTokens } from './accountTokens';
import { findOperatorByEmail } from './queries';
import { resetPasswordMail, sendAfterCommit } from './mails';

export const FORGOT_PASSWORD_ANSWER = {
  message: 'Se este e-mail estiver cadastrado, você receberá um link para redefinir sua senha.',
};

/**
 * Issues a reset link to a registered operator. Only the newest link works. Invited people who never
 * registered get nothing: their invitation link is how they set a password.
 */
export async function forgotPassword(deps: AppDeps, email: string): Promise<void> {
  const op = await findOperatorByEmail(deps.knex, email);
  if (!op || op.verificationLevel === 0) return;
  const token = await deps.knex.transaction(async (trx) => {
    await revokeTokens(trx, op.id, 'reset_password');
    return createAccountToken(trx, { purpose: 'reset_password', operatorId: op.id });
  });
  sendAfterCommit(deps, resetPasswordMail(deps.config, { email: op.email, name: op.name }, token));
}
