import { channelSettings } from '../settings';
import { createCustomChannel, presentCustomChannel } from './createCustomChannel';
import { deliveriesRoutes } from './deliveriesRoutes';
import { CustomChannelSchema } from './schema';

/**
 * A custom channel at /integrations/custom (docs/channels/custom.md): the secret is in the create answer
 * only; the delivery log is its extra route.
 */
export const customSettings = channelSettings({
  type: 'custom',
  segment: 'custom',
  notFound: 'Canal não encontrado.',
  present: (channel, config) => presentCustomChannel(channel, config.publicUrl),
  create: {
    schema: CustomChannelSchema,
    run: async (deps, actor, input) => {
      const { channel, secret } = await createCustomChannel(deps, actor, input);
      return { channel, extra: { secret } };
    },
  },
  routes: deliveriesRoutes,
});
