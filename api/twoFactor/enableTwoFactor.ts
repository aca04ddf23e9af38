import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { issueSession } from '../auth/issueSession';
import { confirmSetup, endOtherSessions } from './setup';
import type { TwoFactorEnabledView } from './presenters';
import type { TwoFactorEnableReq } from './schema';

/**
 * POST /operators/two-factor/enable: the first code from the app turns two-factor login on. The caller
 * gets the backup codes and a fresh session; every other session of the person ends.
 */
export async function enableTwoFactor(deps: AppDeps, actor: Actor, input: TwoFactorEnableReq): Promise<TwoFactorEnabledView> {
  const view = await deps.knex.transaction(async (trx) => {
    const backupCodes = await confirmSetup(deps, trx, actor.operatorId, input.code);
    return { backupCodes, session: await issueSession(deps, trx, actor.operatorId, actor.workspaceId) };
  });
  await endOtherSessions(deps, actor.operatorId);
  return view;
}
