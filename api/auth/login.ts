import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { verifyPassword } from './passwords';
import { activeWorkspaces, findOperatorByEmail } from './queries';
import { sessionOrChallenge, type LoginOrChallengeView } from './twoFactorGate';
import type { LoginReq } from './schema';

export const WRONG_CREDENTIALS = 'E-mail ou senha incorretos.';
export const NO_ACTIVE_WORKSPACE = 'Seu acesso está desativado em todos os workspaces. Fale com o administrador do seu workspace.';

/**
 * Unknown e-mail, wrong password and an invitation not yet completed all get the same answer after the
 * same work (verifyPassword hashes even without a stored hash), so nobody learns which e-mails exist.
 * A right password may still need the two-factor step before the session (docs/two-factor.md).
 */
export async function login(deps: AppDeps, input: LoginReq): Promise<LoginOrChallengeView> {
  const op = await findOperatorByEmail(deps.knex, input.email);
  const registered = op !== undefined && op.verificationLevel > 0;
  const ok = await verifyPassword(registered ? op.passwordHash : null, input.password);
  if (!op || !registered || !ok) throw errors.authentication(WRONG_CREDENTIALS);
  const [first] = await activeWorkspaces(deps.knex, op.id);
  if (!first) throw errors.authentication(NO_ACTIVE_WORKSPACE);
  return sessionOrChallenge(deps, deps.knex, op.id, first.workspaceId);
}
