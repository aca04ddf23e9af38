import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId } from '../http/validate';
import { authorize } from '../policy/policy';
import { WebhookSettingsSchema } from './schema';
import { regenerateWebhookSecret, saveWebhook } from './saveWebhook';
import { findWebhook, latestDeliveries } from './queries';
import { replayDelivery } from './replayDelivery';
import { presentDelivery, presentWebhook } from './presenters';

/** /webhook (SPEC §7: GET, PUT {webhook, email, subscriptions}), its secret and its delivery log. Level 6+. */
export function webhooksRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/webhook', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'webhooks.manage');
    ctx.body = { data: presentWebhook(await findWebhook(actor)) };
  });

  router.put('/webhook', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'webhooks.manage');
    const input = parseBody(ctx, WebhookSettingsSchema);
    ctx.body = { data: presentWebhook(await saveWebhook(deps, actor, input)) };
  });

  router.post('/webhook/secret', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'webhooks.manage');
    ctx.body = { data: presentWebhook(await regenerateWebhookSecret(deps, actor)) };
  });

  router.get('/webhook/deliveries', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'webhooks.manage');
    const rows = await latestDeliveries(actor);
    ctx.body = { data: rows.map(presentDelivery) };
  });

  router.post('/webhook/deliveries/:id/replay', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'webhooks.manage');
    const id = parseId(ctx.params.id);
    ctx.body = { data: presentDelivery(await replayDelivery(deps, actor, id)) };
  });

  return router;
}
