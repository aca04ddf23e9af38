import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { revokeTokens } from '../auth/accountTokens';
import { bumpOperatorVersion } from '../auth/queries';
import { acceptCode } from './acceptCode';
import { limitFailedCodes } from './limits';
import { deleteTwoFactor, requiringWorkspaces } from './queries';
import { endOtherSessions } from './setup';
import { showTwoFactor } from './showTwoFactor';
import type { TwoFactorDisabledView } from './presenters';
import type { TwoFactorCodeReq } from './schema';

/**
 * POST /operators/two-factor/disable: a current code (or a backup code) turns it off, secret and backup
 * codes deleted. In a workspace that requires it this is how a person changes phone or app: every session
 * of theirs ends with it (`signedOut`), so the next login is the setup with the new app and nobody keeps
 * using a requiring workspace without the second factor (docs/two-factor.md "Changing phone").
 */
export async function disableTwoFactor(deps: AppDeps, ctx: Context, actor: Actor, input: TwoFactorCodeReq): Promise<TwoFactorDisabledView> {
  const signedOut = await limitFailedCodes(deps, ctx, actor.operatorId, () =>
    deps.knex.transaction(async (trx) => {
      await acceptCode(deps.config, trx, actor.operatorId, input.code);
      await deleteTwoFactor(trx, actor.operatorId);
      if (!(await requiringWorkspaces(trx, actor.operatorId)).length) return false;
      await bumpOperatorVersion(trx, actor.operatorId);
      await revokeTokens(trx, actor.operatorId, 'renewal');
      return true;
    }),
  );
  if (signedOut) await endOtherSessions(deps, actor.operatorId);
  return { ...(await showTwoFactor(deps.knex, actor.operatorId)), signedOut };
}
