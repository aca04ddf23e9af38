import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseId } from '../../http/validate';
import { authorize } from '../../policy/policy';
import { findChannel } from '../queries';
import { customDeliveries } from './queries';

/** GET /integrations/custom/:id/deliveries: the custom channel's delivery log (docs/channels/custom.md). */
export function deliveriesRoutes(router: Router, deps: AppDeps): void {
  router.get('/custom/:id/deliveries', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'custom', parseId(ctx.params.id));
    if (!channel) throw errors.notFound('Canal não encontrado.');
    ctx.body = { data: await customDeliveries(deps.knex, actor.workspaceId, channel.id) };
  });
}
