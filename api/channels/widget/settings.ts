import { channelSettings } from '../settings';
import { deleteChannel } from '../deleteChannel';
import { presentChannel } from '../presentChannel';
import { createWidgetChannel } from './createWidgetChannel';
import { updateWidgetChannel } from './updateWidgetChannel';
import { WidgetChannelSchema, WidgetChannelUpdateSchema } from './schema';

/** The chat widget at /integrations/widget (docs/channels/widget.md); the visitor's side is visitorRouter.ts. */
export const widgetSettings = channelSettings({
  type: 'widget',
  segment: 'widget',
  present: presentChannel,
  create: { schema: WidgetChannelSchema, run: createWidgetChannel },
  update: { schema: WidgetChannelUpdateSchema, run: updateWidgetChannel },
  remove: (deps, actor, id) => deleteChannel(deps, actor, 'widget', id),
});
