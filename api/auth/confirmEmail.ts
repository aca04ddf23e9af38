import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { createAccountToken, lockToken, markTokenUsed } from './accountTokens';
import { findOperator } from './queries';
import { confirmEmailMail, sendAfterCommit } from './mails';

export const INVALID_CONFIRM_LINK = 'Link de confirmação inválido ou expirado.';

/** Marks the e-mail verified (verificationLevel 2) from the mailed link; the link works once. */
export async function confirmEmail(deps: AppDeps, rawToken: string): Promise<{ verificationLevel: 2 }> {
  return deps.knex.transaction(async (trx) => {
    const token = await lockToken(trx, 'confirm_email', rawToken);
    if (!token) throw errors.field('token', INVALID_CONFIRM_LINK);
    await trx('operators').where({ id: token.operatorId }).where('verificationLevel', '>=', 1).update({ verificationLevel: 2, updatedAt: trx.fn.now() });
    await markTokenUsed(trx, token.id);
    return { verificationLevel: 2 as const };
  });
}

export const ALREADY_CONFIRMED = 'Seu e-mail já está confirmado.';

/** Mails a new confirmation link (GET /operators/resend-email). */
export async function resendConfirmation(deps: AppDeps, operatorId: number): Promise<void> {
  const op = await findOperator(deps.knex, operatorId);
  if (!op) throw errors.authentication();
  if (op.verificationLevel >= 2) throw errors.badRequest(ALREADY_CONFIRMED);
  const token = await createAccountToken(deps.knex, { purpose: 'confirm_email', operatorId });
  sendAfterCommit(deps, confirmEmailMail(deps.config, { email: op.email, name: op.name }, token));
}
