import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { Channel } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { findChannel } from '../queries';
import { settingsOf, type WidgetChannelUpdateReq } from './schema';
import { checkSettingsRefs, widgetSettingsOf } from './widgetSettings';

/**
 * PUT /integrations/widget/:id: description, colour and the widget's settings (a key left out is kept); the
 * identifier never changes (it is in customers' pages).
 */
export async function updateWidgetChannel(deps: Pick<AppDeps, 'knex'>, actor: Actor, id: number, input: WidgetChannelUpdateReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  const settings = settingsOf(input);
  return Channel.transaction(deps.knex, async (trx) => {
    const channel = await findChannel(actor, 'widget', id, trx);
    if (!channel) throw errors.notFound();
    await checkSettingsRefs(trx, actor.workspaceId, settings);
    const current = widgetSettingsOf(channel.config);
    const patch = {
      ...(input.description !== undefined ? { description: input.description, name: input.description } : {}),
      ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
      ...(Object.keys(settings).length ? { config: { ...channel.config, widget: { ...current, ...settings } } } : {}),
      updatedAt: new Date(),
    };
    return channel.$query(trx).patchAndFetch(patch);
  });
}
