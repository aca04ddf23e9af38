import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { hashPassword, verifyPassword } from './passwords';
import { revokeTokens } from './accountTokens';
import { bumpOperatorVersion, findOperator } from './queries';
import { issueSession } from './issueSession';
import type { ChangePasswordReq } from './schema';
import type { LoginView } from './presenters';
import { endRealtimeSessions } from './endRealtimeSessions';
import { forgetOperator } from './membershipCache';

export const WRONG_CURRENT_PASSWORD = 'Senha atual incorreta.';

/**
 * Changes the caller's password. Every other session of the operator ends at once (token version bump,
 * renewal tokens revoked, live MQTT sessions closed); the caller gets a fresh session so they stay logged in.
 */
export async function changePassword(deps: AppDeps, actor: Actor, input: ChangePasswordReq): Promise<LoginView> {
  const op = await findOperator(deps.knex, actor.operatorId);
  if (!op) throw errors.authentication();
  if (!(await verifyPassword(op.passwordHash, input.password))) throw errors.field('password', WRONG_CURRENT_PASSWORD);
  const passwordHash = await hashPassword(input.newPassword);
  const view = await deps.knex.transaction(async (trx) => {
    await bumpOperatorVersion(trx, op.id, { passwordHash });
    await revokeTokens(trx, op.id, 'renewal');
    await revokeTokens(trx, op.id, 'reset_password');
    return issueSession(deps, trx, actor.operatorId, actor.workspaceId);
  });
  forgetOperator(deps.knex, op.id);
  // Live MQTT sessions connected with the old tokens end too (the caller's UI reconnects with the new one).
  await endRealtimeSessions(deps, op.id);
  return view;
}
