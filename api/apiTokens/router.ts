import Router from '@koa/router';
import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { authorize } from '../policy/policy';
import { errors } from '../http/errors';
import { maskedToken, newApiCredentials } from './tokens';
import { currentApiSecret, replaceApiSecret } from './queries';

/** The member the token acts as (docs/api-token.md): shown so the screen can say whose rights it has. */
async function holder(knex: Knex, operatorId: number | null | undefined): Promise<{ id: number; name: string } | null> {
  if (!operatorId) return null;
  const row = await knex('operators').where({ id: operatorId }).first('id', 'name');
  return row ? { id: row.id, name: row.name } : null;
}

/**
 * /api/workspace/secrets (SPEC §7, settings /settings/api): GET shows the API secret and the token masked;
 * POST generates new credentials, answers the full token this one time, and revokes the old ones at once.
 */
export function apiTokensRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/workspace/secrets', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'api.manage');
    const row = await currentApiSecret(deps.knex, actor);
    ctx.body = {
      data: { apiSecret: row?.secret ?? null, apiToken: maskedToken(row?.tokenHint ?? null), createdAt: row?.createdAt ?? null, createdBy: await holder(deps.knex, row?.createdBy), masked: true },
    };
  });

  router.post('/workspace/secrets', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'api.manage');
    // A leaked token must not be able to rotate itself out of its owners' hands.
    if (actor.kind === 'api') throw errors.forbidden();
    const fresh = newApiCredentials();
    const row = await replaceApiSecret(deps.knex, actor, {
      secret: fresh.apiSecret,
      tokenHash: fresh.tokenHash,
      tokenHint: fresh.tokenHint,
      createdBy: actor.operatorId,
    });
    ctx.status = 201;
    ctx.body = { data: { apiSecret: row.secret, apiToken: fresh.apiToken, createdAt: row.createdAt, createdBy: await holder(deps.knex, row.createdBy), masked: false } };
  });

  return router;
}
