import { actorOf, authenticate } from '../../auth/authenticate';
import { receiveAvatar } from '../../avatars/receiveAvatar';
import { saveAvatar } from '../../avatars/saveAvatar';
import { authorize } from '../../policy/policy';
import { createStorage } from '../../storage/storage';
import { channelSettings } from '../settings';
import { deleteChannel } from '../deleteChannel';
import { createWidgetChannel } from './createWidgetChannel';
import { updateWidgetChannel } from './updateWidgetChannel';
import { WidgetChannelSchema, WidgetChannelUpdateSchema } from './schema';
import { presentWidgetChannel } from './widgetSettings';

/** The chat widget at /integrations/widget (docs/channels/widget.md); the visitor's side is visitorRouter.ts. */
export const widgetSettings = channelSettings({
  type: 'widget',
  segment: 'widget',
  present: presentWidgetChannel,
  create: { schema: WidgetChannelSchema, run: createWidgetChannel },
  update: { schema: WidgetChannelUpdateSchema, run: updateWidgetChannel },
  remove: (deps, actor, id) => deleteChannel(deps, actor, 'widget', id),
  routes: (router, deps) => {
    const storage = createStorage(deps.config);
    // The company's logo for the widget's header: the avatar upload of the product (image, 1 MB, type by
    // content, public by its unguessable key). The form saves the answered URL with the widget.
    router.post('/widget/logo', authenticate(deps), async (ctx) => {
      const actor = actorOf(ctx);
      authorize(actor, 'channels.manage');
      const url = await saveAvatar({ knex: deps.knex, storage, config: deps.config }, await receiveAvatar(ctx.req), actor);
      ctx.status = 201;
      ctx.body = { data: [{ fileName: url }] };
    });
  },
});
