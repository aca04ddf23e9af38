import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../http/authenticate';
import { parseBody } from '../../http/validate';
import { presentChannel } from '../../integrations/presenters';
import { authorize } from '../../policy/policy';
import { createEmailChannel } from './createEmailChannel';
import { EmailChannelSchema } from './schema';

/** POST /integrations/mail: a new e-mail channel with its generated forwarding address. */
export function emailIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/integrations/mail', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, EmailChannelSchema);
    ctx.status = 201;
    ctx.body = { data: presentChannel(await createEmailChannel(deps, actor, input)) };
  });
  return router;
}
