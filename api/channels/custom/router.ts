import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseBody, parseId } from '../../http/validate';
import { Channel } from '../../models/Channel';
import { authorize } from '../../policy/policy';
import { createCustomChannel, presentCustomChannel } from './createCustomChannel';
import { customDeliveries } from './queries';
import { CustomChannelSchema } from './schema';

/**
 * POST /integrations/custom: add a custom channel (the secret is in this answer only);
 * GET /integrations/custom/:id and its delivery log /integrations/custom/:id/deliveries.
 */
export function customIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/integrations/custom', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, CustomChannelSchema);
    const { channel, secret } = await createCustomChannel(deps, actor, input);
    ctx.status = 201;
    ctx.body = { data: { ...presentCustomChannel(channel, deps.config.publicUrl), secret } };
  });

  const own = async (workspaceId: number, raw: unknown) => {
    const row = await Channel.query(deps.knex).findOne({ id: parseId(raw), workspaceId, type: 'custom' });
    if (!row) throw errors.notFound('Canal não encontrado.');
    return row;
  };
  router.get('/integrations/custom/:id', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    ctx.body = { data: presentCustomChannel(await own(actor.workspaceId, ctx.params.id), deps.config.publicUrl) };
  });
  router.get('/integrations/custom/:id/deliveries', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await own(actor.workspaceId, ctx.params.id);
    ctx.body = { data: await customDeliveries(deps.knex, actor.workspaceId, channel.id) };
  });
  return router;
}
