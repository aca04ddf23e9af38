import Router from '@koa/router';
import type { AppDeps } from '../../../deps';
import { actorOf, authenticate } from '../../../auth/authenticate';
import { errors } from '../../../http/errors';
import { parseBody, parseId } from '../../../http/validate';
import { authorize, type Actor } from '../../../policy/policy';
import { findChannel } from '../../queries';
import { Channel } from '../../../models/Channel';
import { scoped } from '../../../db/scope';
import { setChannelStatus } from '../../channelStatus';
import { isCloudConfig } from '../schema';
import { restartQrConnection } from './startConnection';
import { QrRestartSchema } from './schema';

async function whatsappLine(actor: Actor, id: number) {
  const channel = await findChannel(actor, 'whatsapp', id);
  if (!channel) throw errors.notFound();
  return channel;
}

/**
 * The QR reading modal and 'Reiniciar' (docs/channels/whatsapp.md "Connection workflow"), level 6+ like
 * every channel setting. Another workspace's line is a 404.
 */
export function whatsappQrRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  // Polled every 3 s by the modal: the pending QR (null once read, or on a Cloud line) and the line's status.
  router.get('/integrations/whatsapp/qrcode/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await whatsappLine(actor, parseId(ctx.params.id));
    const conn = await deps.knex('whatsapp_connections').where({ workspaceId: actor.workspaceId, channelId: channel.id }).first('qrcode');
    ctx.body = { data: { qrcode: (conn?.qrcode as string | null | undefined) ?? null, status: channel.status } };
  });

  router.post('/integrations/restart', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const { id } = parseBody(ctx, QrRestartSchema);
    const channel = (await scoped(Channel, actor).findById(id)) as Channel | undefined;
    if (!channel) throw errors.notFound();
    // Only a QR line keeps a connection of ours; other channels of the workspace have nothing to restart.
    if (channel.type !== 'whatsapp' || isCloudConfig(channel.config ?? {})) {
      throw errors.validation([{ key: 'id', descriptions: ['Este canal não tem conexão para reiniciar.'] }]);
    }
    // Shown before the signal: the new socket's own statuses (QR, connected) must come after it.
    await setChannelStatus(deps, { id: channel.id, workspaceId: actor.workspaceId }, 'restarting_channel');
    await restartQrConnection(deps.temporal, { workspaceId: actor.workspaceId, channelId: channel.id });
    ctx.body = { data: { id: channel.id, status: 'restarting_channel' } };
  });
  return router;
}
