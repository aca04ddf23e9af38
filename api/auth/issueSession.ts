import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { signAccessToken } from './tokens';
import { createAccountToken } from './accountTokens';
import { activeWorkspaces, findMembership, findOperator, findWorkspace, latestSubscription } from './queries';
import { presentUser, presentWorkspaceSession, type LoginView, type UserView } from './presenters';
import type { AccessLevelValue } from '../policy/levels';

/**
 * Opens a session of an operator in one workspace: an access token carrying the current token versions
 * and a new renewal token. The membership must be active.
 */
export async function issueSession(deps: AppDeps, db: Knex, operatorId: number, workspaceId: number): Promise<LoginView> {
  // One after another: db may be a transaction, whose single connection runs one query at a time.
  const op = await findOperator(db, operatorId);
  const member = await findMembership(db, workspaceId, operatorId);
  const ws = await findWorkspace(db, workspaceId);
  const subscription = await latestSubscription(db, workspaceId);
  const workspaces = await activeWorkspaces(db, operatorId);
  if (!op || !member || !member.isActive || !ws) throw errors.authentication();
  const token = await signAccessToken(deps.config.jwtSecret, {
    operatorId,
    workspaceId,
    accessLevel: member.accessLevel as AccessLevelValue,
    operatorVersion: op.tokenVersion,
    memberVersion: member.tokenVersion,
  });
  const renewalToken = await createAccountToken(db, { purpose: 'renewal', operatorId, workspaceId });
  return {
    user: presentUser(op, member, workspaces),
    workspace: presentWorkspaceSession(ws, member, subscription, { token, renewalToken }),
  };
}

/** The user object for the workspace the caller is acting in (GET /session, /operators/profile). */
export async function loadUser(db: Knex, operatorId: number, workspaceId: number): Promise<UserView> {
  const op = await findOperator(db, operatorId);
  const member = await findMembership(db, workspaceId, operatorId);
  const workspaces = await activeWorkspaces(db, operatorId);
  if (!op || !member) throw errors.authentication();
  return presentUser(op, member, workspaces);
}
