import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { hashPassword } from './passwords';
import { lockToken, markTokenUsed, revokeTokens } from './accountTokens';
import { bumpOperatorVersion, findOperator } from './queries';
import type { ResetPasswordReq } from './schema';
import { endRealtimeSessions } from './endRealtimeSessions';
import { forgetOperator } from './membershipCache';

export const INVALID_RESET_LINK = 'Link de redefinição inválido ou expirado. Peça um novo e-mail de redefinição.';

/**
 * Sets a new password from a reset link. The token must belong to the e-mail sent with it. Every older
 * access token and renewal token of the operator stops working, and their live MQTT sessions close; following the link also proves the e-mail.
 */
export async function resetPassword(deps: AppDeps, input: ResetPasswordReq): Promise<{ email: string }> {
  const passwordHash = await hashPassword(input.newPassword);
  const { email, operatorId } = await deps.knex.transaction(async (trx) => {
    const token = await lockToken(trx, 'reset_password', input.token);
    const op = token ? await findOperator(trx, token.operatorId) : undefined;
    if (!token || !op || op.email.toLowerCase() !== input.email) throw errors.field('token', INVALID_RESET_LINK);
    await bumpOperatorVersion(trx, op.id, {
      passwordHash,
      verificationLevel: Math.max(op.verificationLevel, 2),
    });
    await markTokenUsed(trx, token.id);
    await revokeTokens(trx, op.id, 'reset_password');
    await revokeTokens(trx, op.id, 'renewal');
    return { email: op.email, operatorId: op.id };
  });
  forgetOperator(deps.knex, operatorId);
  await endRealtimeSessions(deps, operatorId);
  return { email };
}
