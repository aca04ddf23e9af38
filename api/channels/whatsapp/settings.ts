import { channelSettings } from '../settings';
import { createWhatsappChannel, presentWhatsappChannel } from './createWhatsappChannel';
import { LINE_NOT_FOUND, updateWhatsappLine, WhatsappLineUpdateSchema } from './lineSettings';
import { qrRoutes } from './qr/qrRoutes';
import { startQrConnection } from './qr/startConnection';
import { WhatsappChannelSchema } from './schema';
import { templatesRoutes } from './templatesRoutes';

/**
 * A WhatsApp line at /integrations/whatsapp (docs/channels/whatsapp.md), QR or Cloud API. Its extra
 * routes: the QR modal and 'Reiniciar' (qr/qrRoutes.ts) and a Cloud line's templates (templatesRoutes.ts).
 */
export const whatsappSettings = channelSettings({
  type: 'whatsapp',
  segment: 'whatsapp',
  notFound: LINE_NOT_FOUND,
  present: (channel, config) => presentWhatsappChannel(channel, config.publicUrl),
  create: {
    schema: WhatsappChannelSchema,
    run: async (deps, actor, input) => {
      const channel = await createWhatsappChannel(deps, actor, input);
      // A QR line's connection workflow shows the QR; if Temporal is away, 'Reiniciar' starts it later.
      if (input.provider !== 'cloud') await startQrConnection(deps.temporal, { workspaceId: channel.workspaceId, channelId: channel.id }).catch((err: unknown) => deps.logger.error({ err, channelId: channel.id }, 'whatsapp connection workflow not started'));
      return channel;
    },
  },
  update: { schema: WhatsappLineUpdateSchema, run: updateWhatsappLine },
  routes: (router, deps) => {
    qrRoutes(router, deps);
    templatesRoutes(router, deps);
  },
});
