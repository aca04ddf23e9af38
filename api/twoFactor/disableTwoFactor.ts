import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { Actor } from '../policy/policy';
import { errors } from '../http/errors';
import { acceptCode } from './acceptCode';
import { limitFailedCodes } from './limits';
import { deleteTwoFactor, requiringWorkspaces } from './queries';
import { requiredByMessage } from './messages';
import { showTwoFactor } from './showTwoFactor';
import type { TwoFactorStatusView } from './presenters';
import type { TwoFactorCodeReq } from './schema';

/**
 * POST /operators/two-factor/disable: a current code (or a backup code) turns it off, secret and backup
 * codes deleted. Refused while a workspace the person belongs to requires it (its owner must stop
 * requiring it, or the person leave it, first).
 */
export async function disableTwoFactor(deps: AppDeps, ctx: Context, actor: Actor, input: TwoFactorCodeReq): Promise<TwoFactorStatusView> {
  const requiring = await requiringWorkspaces(deps.knex, actor.operatorId);
  if (requiring.length) throw errors.forbidden(requiredByMessage(requiring.map((w) => w.workspace)));
  await limitFailedCodes(deps, ctx, actor.operatorId, () =>
    deps.knex.transaction(async (trx) => {
      await acceptCode(deps.config, trx, actor.operatorId, input.code);
      await deleteTwoFactor(trx, actor.operatorId);
    }),
  );
  return showTwoFactor(deps.knex, actor.operatorId);
}
