import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { Channel, type ChannelType } from '../models/Channel';
import { authorize, type Actor } from '../policy/policy';
import { scoped } from '../db/scope';
import { findChannel } from './queries';

/**
 * DELETE /integrations/{type}/:id. The database cascades to the channel's conversations, calls,
 * messages, inbound events and (widget) visitor sessions (docs/data-model.md).
 */
export async function deleteChannel(deps: Pick<AppDeps, 'knex'>, actor: Actor, type: ChannelType, id: number): Promise<Channel> {
  authorize(actor, 'channels.manage');
  return Channel.transaction(deps.knex, async (trx) => {
    const channel = await findChannel(actor, type, id, trx);
    if (!channel) throw errors.notFound();
    await scoped(Channel, actor, trx).where('channels.id', id).delete();
    return channel;
  });
}
