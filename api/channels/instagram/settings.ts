import { channelSettings } from '../settings';
import { instagramRoutes } from '../meta/settingsRoutes';
import { connectInstagramAccount, deleteInstagramChannel, presentInstagramChannel } from './connectAccount';
import { InstagramConnectSchema } from './schema';

/**
 * An Instagram account at /integrations/instagram (docs/channels/instagram.md), reached through a
 * connected Facebook page (201, or 200 when it was already connected); removing it unsubscribes the page
 * when nothing else uses it. The accounts of the connected pages are an extra route.
 */
export const instagramSettings = channelSettings({
  type: 'instagram',
  segment: 'instagram',
  present: presentInstagramChannel,
  create: { schema: InstagramConnectSchema, run: connectInstagramAccount },
  remove: deleteInstagramChannel,
  routes: instagramRoutes,
});
