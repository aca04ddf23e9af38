import type { AppDeps } from '../../deps';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { newForwardingAddress } from './addresses';
import type { EmailChannelReq } from './schema';

/**
 * POST /integrations/mail. The channel's identifier is its generated forwarding address
 * (`{random}@{INBOUND_EMAIL_DOMAIN}`): the company forwards its mailbox there and the api's SMTP server
 * accepts mail only for such addresses. It is `connected` from the start (mail comes to us).
 */
export async function createEmailChannel(deps: Pick<AppDeps, 'knex' | 'config'>, actor: Actor, input: EmailChannelReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  return Channel.query(deps.knex).insertAndFetch({
    workspaceId: actor.workspaceId,
    platformId: PLATFORM_IDS.email,
    type: 'email',
    name: input.description,
    description: input.description,
    status: 'connected',
    identifier: newForwardingAddress(deps.config.inboundEmailDomain),
    config: {},
  });
}
