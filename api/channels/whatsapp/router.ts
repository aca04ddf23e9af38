import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { parseBody } from '../../http/validate';
import { authorize } from '../../policy/policy';
import { createWhatsappChannel, presentWhatsappChannel } from './createWhatsappChannel';
import { startQrConnection } from './qr/startConnection';
import { WhatsappChannelSchema } from './schema';

/** POST /integrations/whatsapp: add a line (QR or Cloud API). */
export function whatsappIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/integrations/whatsapp', authenticate(deps), async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, WhatsappChannelSchema);
    const channel = await createWhatsappChannel(deps, actor, input);
    // A QR line's connection workflow shows the QR; if Temporal is away, 'Reiniciar' starts it later.
    if (input.provider !== 'cloud') await startQrConnection(deps.temporal, { workspaceId: channel.workspaceId, channelId: channel.id }).catch((err: unknown) => deps.logger.error({ err, channelId: channel.id }, 'whatsapp connection workflow not started'));
    ctx.status = 201;
    ctx.body = { data: presentWhatsappChannel(channel, deps.config.publicUrl) };
  });
  return router;
}
