import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { authorizePerson } from '../policy/policy';
import { parseBody } from '../http/validate';
import {
  TwoFactorChallengeSchema,
  TwoFactorCodeSchema,
  TwoFactorEnableSchema,
  TwoFactorLoginEnableSchema,
  TwoFactorLoginSchema,
  TwoFactorRequirementSchema,
  TwoFactorSetupSchema,
} from './schema';
import { showTwoFactor } from './showTwoFactor';
import { startSetup } from './setup';
import { enableTwoFactor } from './enableTwoFactor';
import { disableTwoFactor } from './disableTwoFactor';
import { regenerateBackupCodes } from './regenerateBackupCodes';
import { loginWithCode } from './loginWithCode';
import { finishLoginSetup, startLoginSetup } from './loginSetup';
import { setRequirement, showRequirement } from './requirement';

/**
 * Two-factor login (docs/two-factor.md): the person's own switch under /operators/two-factor, the step
 * after the password under /operators/login/two-factor, and the owner's requirement at /workspace/two-factor.
 */
export function twoFactorRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  /** The person (never the workspace API token) acting on their own account. */
  const person = (ctx: Context) => {
    const actor = actorOf(ctx);
    authorizePerson(actor);
    return actor;
  };

  router.get('/operators/two-factor', auth, async (ctx) => {
    ctx.body = { data: await showTwoFactor(deps.knex, person(ctx).operatorId) };
  });

  router.post('/operators/two-factor/setup', auth, async (ctx) => {
    const actor = person(ctx);
    parseBody(ctx, TwoFactorSetupSchema);
    ctx.body = { data: await startSetup(deps, deps.knex, actor.operatorId) };
  });

  router.post('/operators/two-factor/enable', auth, async (ctx) => {
    const actor = person(ctx);
    ctx.body = { data: await enableTwoFactor(deps, actor, parseBody(ctx, TwoFactorEnableSchema)) };
  });

  router.post('/operators/two-factor/disable', auth, async (ctx) => {
    const actor = person(ctx);
    ctx.body = { data: await disableTwoFactor(deps, ctx, actor, parseBody(ctx, TwoFactorCodeSchema)) };
  });

  router.post('/operators/two-factor/backup-codes', auth, async (ctx) => {
    const actor = person(ctx);
    ctx.body = { data: await regenerateBackupCodes(deps, ctx, actor, parseBody(ctx, TwoFactorCodeSchema)) };
  });

  router.post('/operators/login/two-factor', async (ctx) => {
    ctx.body = { data: await loginWithCode(deps, ctx, parseBody(ctx, TwoFactorLoginSchema)) };
  });

  router.post('/operators/login/two-factor/setup', async (ctx) => {
    ctx.body = { data: await startLoginSetup(deps, parseBody(ctx, TwoFactorChallengeSchema)) };
  });

  router.post('/operators/login/two-factor/enable', async (ctx) => {
    ctx.body = { data: await finishLoginSetup(deps, parseBody(ctx, TwoFactorLoginEnableSchema)) };
  });

  router.get('/workspace/two-factor', auth, async (ctx) => {
    ctx.body = { data: await showRequirement(deps, actorOf(ctx)) };
  });

  router.put('/workspace/two-factor', auth, async (ctx) => {
    const actor = actorOf(ctx);
    ctx.body = { data: await setRequirement(deps, actor, parseBody(ctx, TwoFactorRequirementSchema)) };
  });

  return router;
}
