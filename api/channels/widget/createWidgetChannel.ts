import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { settingsOf, type WidgetChannelReq } from './schema';
import { checkSettingsRefs, widgetSettingsOf } from './widgetSettings';

/** 128 random bits, hex: the widget's public id, unguessable so channels cannot be enumerated. */
export function newWidgetIdentifier(): string {
  return randomBytes(16).toString('hex');
}

/** POST /integrations/widget. A widget has no provider to connect to, so it is connected from the start. */
export async function createWidgetChannel(deps: Pick<AppDeps, 'knex'>, actor: Actor, input: WidgetChannelReq): Promise<Channel> {
  authorize(actor, 'channels.manage');
  const settings = settingsOf(input);
  await checkSettingsRefs(deps.knex, actor.workspaceId, settings);
  return Channel.query(deps.knex).insertAndFetch({
    workspaceId: actor.workspaceId,
    platformId: PLATFORM_IDS.widget,
    type: 'widget',
    description: input.description,
    // The list shows `name`; for the widget it is its description.
    name: input.description,
    avatar: input.avatar,
    status: 'connected',
    identifier: newWidgetIdentifier(),
    config: { widget: widgetSettingsOf({ widget: settings }) },
  });
}
