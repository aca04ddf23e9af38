import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { parseBody, parseId } from '../http/validate';
import { validateUserUrl } from '../http/guardedFetch';
import { authorizePerson } from '../policy/policy';
import { PushSubscriptionSchema } from './schema';
import { deviceLabel } from './deviceLabel';
import { pushLoopbackAllowed } from './testing';

/** More devices than anyone uses: the oldest subscription makes room for a new one. */
const MAX_DEVICES = 20;

interface DeviceRow {
  id: number;
  endpoint: string;
  userAgent: string;
  createdAt: Date;
}

function presentDevice(row: DeviceRow) {
  return { id: row.id, endpoint: row.endpoint, label: row.userAgent, createdAt: row.createdAt };
}

/**
 * Web Push devices (docs/pwa.md) at /api/push: an agent's own subscriptions in the current workspace, any
 * level, a person's session only (the workspace API token is nobody's device). Every read and delete is
 * scoped to the caller's workspace and operator: another agent's device is a 404.
 */
export function pushRouter(deps: AppDeps) {
  const router = new Router({ prefix: '/push' });
  const auth = authenticate(deps);

  router.get('/public-key', auth, (ctx) => {
    authorizePerson(actorOf(ctx));
    ctx.body = { data: { publicKey: deps.config.vapidPublicKey } };
  });

  router.get('/subscriptions', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorizePerson(actor);
    const rows: DeviceRow[] = await deps.knex('push_subscriptions')
      .where({ workspaceId: actor.workspaceId, operatorId: actor.operatorId })
      .orderBy('id')
      .select('id', 'endpoint', 'user_agent', 'created_at');
    ctx.body = { data: rows.map(presentDevice) };
  });

  router.post('/subscriptions', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorizePerson(actor);
    const input = parseBody(ctx, PushSubscriptionSchema);
    const reason = await validateUserUrl(input.endpoint, { allowLoopbackForTests: pushLoopbackAllowed() });
    if (reason) throw errors.validation([{ key: 'endpoint', descriptions: [reason] }]);
    const scope = { workspaceId: actor.workspaceId, operatorId: actor.operatorId };
    const row: DeviceRow = await deps.knex.transaction(async (trx) => {
      const [saved] = await trx('push_subscriptions')
        .insert({ ...scope, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, userAgent: deviceLabel(ctx.get('user-agent')) })
        .onConflict(['workspace_id', 'operator_id', 'endpoint'])
        .merge(['p256dh', 'auth', 'user_agent'])
        .returning(['id', 'endpoint', 'user_agent', 'created_at']);
      const keep = trx('push_subscriptions').where(scope).orderBy('id', 'desc').limit(MAX_DEVICES).select('id');
      await trx('push_subscriptions').where(scope).whereNotIn('id', keep).delete();
      return saved as DeviceRow;
    });
    ctx.status = 201;
    ctx.body = { data: presentDevice(row) };
  });

  router.delete('/subscriptions/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorizePerson(actor);
    const id = parseId(ctx.params.id);
    const deleted = await deps.knex('push_subscriptions').where({ id, workspaceId: actor.workspaceId, operatorId: actor.operatorId }).delete();
    if (!deleted) throw errors.notFound();
    ctx.status = 204;
  });

  return router;
}
