import type Router from '@koa/router';
import type { AppDeps } from '../../../deps';
import { actorOf, authenticate } from '../../../auth/authenticate';
import { errors } from '../../../http/errors';
import { parseBody, parseId } from '../../../http/validate';
import { authorize } from '../../../policy/policy';
import { findChannel } from '../../queries';
import { Channel } from '../../../models/Channel';
import { scoped } from '../../../db/scope';
import { setChannelStatus } from '../../channelStatus';
import { isCloudConfig } from '../schema';
import { restartQrConnection } from './startConnection';
import { QrRestartSchema } from './schema';

/**
 * The QR reading modal and 'Reiniciar' (docs/channels/whatsapp.md "Connection workflow"), level 6+ like
 * every channel setting: WhatsApp's extra routes under /integrations. Another workspace's line is a 404.
 */
export function qrRoutes(router: Router, deps: AppDeps): void {
  const auth = authenticate(deps);

  // Polled every 3 s by the modal: the pending QR (null once read, or on a Cloud line) and the line's status.
  router.get('/whatsapp/qrcode/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'whatsapp', parseId(ctx.params.id));
    if (!channel) throw errors.notFound();
    const conn = await deps.knex('whatsapp_connections').where({ workspaceId: actor.workspaceId, channelId: channel.id }).first('qrcode');
    ctx.body = { data: { qrcode: (conn?.qrcode as string | null | undefined) ?? null, status: channel.status } };
  });

  router.post('/restart', auth, async (ctx) => {
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
}
