import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { issueSession } from './issueSession';
import { findWorkspace } from './queries';
import { createChallenge } from './twoFactorChallenges';
import type { LoginOrChallengeView } from './twoFactorViews';

/**
 * Where a proven password meets two-factor login (docs/two-factor.md). This floor only decides whether a
 * session needs the extra step; the codes, secrets and setup live in api/twoFactor.
 */

export type { LoginOrChallengeView, TwoFactorChallengeView } from './twoFactorViews';

/** Whether the operator logs in with a second factor. */
export async function hasTwoFactor(db: Knex, operatorId: number): Promise<boolean> {
  const row = await db('operatorTwoFactor').where({ operatorId }).whereNotNull('enabledAt').first('operatorId');
  return row !== undefined;
}

export async function workspaceRequiresTwoFactor(db: Knex, workspaceId: number): Promise<boolean> {
  const row = await db('workspaces').where({ id: workspaceId }).first('requireTwoFactor');
  return row?.requireTwoFactor === true;
}

/**
 * What a proven password opens (login, an invitation completed with a password): a session, or first the
 * two-factor step — the code when the operator has two-factor login on, the setup when the workspace being
 * entered requires it and the operator has none.
 */
export async function sessionOrChallenge(deps: AppDeps, db: Knex, operatorId: number, workspaceId: number): Promise<LoginOrChallengeView> {
  const step = (await hasTwoFactor(db, operatorId)) ? 'code' : (await workspaceRequiresTwoFactor(db, workspaceId)) ? 'setup' : undefined;
  if (!step) return issueSession(deps, db, operatorId, workspaceId);
  const ws = await findWorkspace(db, workspaceId);
  const { token, expiresAt } = await createChallenge(db, { operatorId, workspaceId, step });
  return { twoFactor: { step, challengeToken: token, expiresAt: expiresAt.toISOString(), workspace: ws?.name ?? '' } };
}

/**
 * A renewal (or a switch) into a workspace that requires two-factor login, by an operator without it: a
 * renewal in the same workspace ends the session (401: the next login sends them to the setup); a switch
 * is refused with what to do (403).
 */
export async function assertMayRenewInto(db: Knex, operatorId: number, workspaceId: number, switching: boolean): Promise<void> {
  if (!(await workspaceRequiresTwoFactor(db, workspaceId)) || (await hasTwoFactor(db, operatorId))) return;
  const name = (await findWorkspace(db, workspaceId))?.name ?? '';
  throw switching
    ? errors.forbidden(`O workspace ${name} exige a verificação em duas etapas. Ative-a em Configurações › Perfil para entrar nele.`)
    : errors.authentication(`O workspace ${name} passou a exigir a verificação em duas etapas. Entre de novo para ativá-la.`);
}
