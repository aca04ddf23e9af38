import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseBody, parseId } from '../../http/validate';
import { findChannel } from '../queries';
import { authorize } from '../../policy/policy';
import { createTelegramChannel, deleteTelegramChannel, presentTelegramChannel, updateTelegramChannel } from './createTelegramChannel';
import { TelegramChannelSchema, TelegramChannelUpdateSchema } from './schema';

/** POST/GET/PUT/DELETE /integrations/telegram: add, show, change (description, a new token) and remove a Telegram line. */
export function telegramIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);
  router.post('/integrations/telegram', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, TelegramChannelSchema);
    ctx.status = 201;
    ctx.body = { data: presentTelegramChannel(await createTelegramChannel(deps, actor, input)) };
  });
  router.get('/integrations/telegram/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'telegram', parseId(ctx.params.id));
    if (!channel) throw errors.notFound();
    ctx.body = { data: presentTelegramChannel(channel) };
  });
  router.put('/integrations/telegram/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const id = parseId(ctx.params.id);
    const input = parseBody(ctx, TelegramChannelUpdateSchema);
    ctx.body = { data: presentTelegramChannel(await updateTelegramChannel(deps, actor, id, input)) };
  });
  router.delete('/integrations/telegram/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    ctx.body = { data: presentTelegramChannel(await deleteTelegramChannel(deps, actor, parseId(ctx.params.id))) };
  });
  return router;
}
