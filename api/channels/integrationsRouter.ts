import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { parseBody, parseId } from '../http/validate';
import { parseListQuery, writeList } from '../http/listQuery';
import { authorize } from '../policy/policy';
import { CHANNEL_SORT_COLUMNS, findChannel, listChannels } from './queries';
import { WidgetChannelSchema, WidgetChannelUpdateSchema } from './widget/schema';
import { createWidgetChannel } from './widget/createWidgetChannel';
import { updateWidgetChannel } from './widget/updateWidgetChannel';
import { deleteChannel } from './deleteChannel';
import { presentChannel } from './presentChannel';

/**
 * Channel administration (SPEC §7 Channels, docs/api/inbox.md Widget): the list of every channel type
 * and the chat widget's own CRUD. Other channel types add their `/integrations/{type}` routes beside these.
 */
export function integrationsRouter(deps: AppDeps) {
  const router = new Router({ prefix: '/integrations' });
  const auth = authenticate(deps);

  // Every member reads the list: the inbox filters, segments and bots name channels. Nothing in it is
  // secret (identifiers are public routing keys; credentials stay in `config`).
  router.get('/channel', auth, async (ctx) => {
    const actor = actorOf(ctx);
    const q = parseListQuery(ctx, {
      sortable: Object.keys(CHANNEL_SORT_COLUMNS),
      defaultSort: { field: 'sort', order: 'asc' },
      filterable: ['channelId'],
      defaultLimit: 200,
      maxLimit: 1000,
    });
    const result = await listChannels(actor, q);
    writeList(ctx, 'channel', q, { ...result, rows: result.rows.map(presentChannel) });
  });

  router.post('/widget', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, WidgetChannelSchema);
    ctx.status = 201;
    ctx.body = { data: presentChannel(await createWidgetChannel(deps, actor, input)) };
  });

  router.get('/widget/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'widget', parseId(ctx.params.id));
    if (!channel) throw errors.notFound();
    ctx.body = { data: presentChannel(channel) };
  });

  router.put('/widget/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const id = parseId(ctx.params.id);
    const input = parseBody(ctx, WidgetChannelUpdateSchema);
    ctx.body = { data: presentChannel(await updateWidgetChannel(deps, actor, id, input)) };
  });

  router.delete('/widget/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    ctx.body = { data: presentChannel(await deleteChannel(deps, actor, 'widget', parseId(ctx.params.id))) };
  });

  return router;
}
