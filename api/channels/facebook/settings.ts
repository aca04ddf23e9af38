import { channelSettings } from '../settings';
import { facebookRoutes } from '../meta/settingsRoutes';
import { connectFacebookPage, deleteFacebookChannel, presentFacebookChannel } from './connectPage';
import { FacebookPageConnectSchema } from './schema';

/**
 * A Facebook page at /integrations/facebook (docs/channels/facebook.md): connected from a Facebook login
 * session (201, or 200 when the page was already connected); removing it unsubscribes the page when no
 * other channel uses it. The list of pages and the login are extra routes (meta/settingsRoutes.ts).
 */
export const facebookSettings = channelSettings({
  type: 'facebook',
  segment: 'facebook',
  list: true,
  present: presentFacebookChannel,
  create: { schema: FacebookPageConnectSchema, run: connectFacebookPage },
  remove: deleteFacebookChannel,
  routes: facebookRoutes,
});
