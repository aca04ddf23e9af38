import { channelSettings } from '../settings';
import { deleteChannel } from '../deleteChannel';
import { createEmailChannel } from './createEmailChannel';
import { htmlViewRoutes } from './htmlViewRoutes';
import { presentEmailChannel } from './presenters';
import { EmailChannelSchema, EmailChannelUpdateSchema } from './schema';
import { updateEmailChannel } from './updateEmailChannel';

/**
 * The e-mail channel at /integrations/mail (docs/channels/email.md): a new channel gets its generated
 * forwarding address; the HTML view of one e-mail is its extra route.
 */
export const emailSettings = channelSettings({
  type: 'email',
  segment: 'mail',
  present: presentEmailChannel,
  create: { schema: EmailChannelSchema, run: createEmailChannel },
  update: { schema: EmailChannelUpdateSchema, run: updateEmailChannel },
  remove: (deps, actor, id) => deleteChannel(deps, actor, 'email', id),
  routes: htmlViewRoutes,
});
