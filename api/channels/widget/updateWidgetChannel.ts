import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { Channel } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { findChannel } from '../queries';
import type { WidgetChannelUpdateReq } from './schema';

/** PUT /integrations/widget/:id: description and colour; the identifier never changes (it is in customers' pages). */
export async function updateWidgetChannel(deps: Pick<AppDeps, 'knex'>, actor: Actor, id: number, input: WidgetChannelUpdateReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  return Channel.transaction(deps.knex, async (trx) => {
    const channel = await findChannel(actor, 'widget', id, trx);
    if (!channel) throw errors.notFound();
    const patch = {
      ...(input.description !== undefined ? { description: input.description, name: input.description } : {}),
      ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
      updatedAt: new Date(),
    };
    return channel.$query(trx).patchAndFetch(patch);
  });
}
