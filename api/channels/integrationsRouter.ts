import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { parseBody, parseId } from '../http/validate';
import { parseListQuery, writeList } from '../http/listQuery';
import { authorize } from '../policy/policy';
import { Channel } from '../models/Channel';
import { CHANNEL_SORT_COLUMNS, channelsOfType, findChannel, listChannels } from './queries';
import { presentChannel } from './presentChannel';
import type { AnyChannelSettings, ChannelChange } from './settings';
import { whatsappSettings } from './whatsapp/settings';
import { telegramSettings } from './telegram/settings';
import { facebookSettings } from './facebook/settings';
import { instagramSettings } from './instagram/settings';
import { emailSettings } from './email/settings';
import { widgetSettings } from './widget/settings';
import { customSettings } from './custom/settings';

/** Every channel type's settings record (api/channels/settings.ts); an eighth channel adds its own here. */
export const CHANNEL_SETTINGS: readonly AnyChannelSettings[] = [whatsappSettings, telegramSettings, facebookSettings, instagramSettings, emailSettings, widgetSettings, customSettings];

const changeOf = (result: Channel | ChannelChange): ChannelChange => (result instanceof Channel ? { channel: result } : result);

/**
 * Channel administration (SPEC §7 Channels, docs/architecture.md "Channels"): the list of every channel
 * and, for each type, the same four routes built from its settings record, after its own extra routes.
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

  for (const s of CHANNEL_SETTINGS) {
    s.routes?.(router, deps);
    const base = `/${s.segment}`;
    const present = (channel: Channel) => s.present(channel, deps.config);
    const answer = (result: Channel | ChannelChange) => {
      const { channel, extra } = changeOf(result);
      return { data: { ...present(channel), ...extra } };
    };

    if (s.list) {
      router.get(base, auth, async (ctx) => {
        const actor = actorOf(ctx);
        authorize(actor, 'channels.manage');
        const rows = await channelsOfType(actor, s.type);
        ctx.body = { data: rows.map(present), matchCount: rows.length, totalCount: rows.length };
      });
    }

    router.post(base, auth, async (ctx) => {
      const actor = actorOf(ctx);
      authorize(actor, 'channels.manage');
      const input = parseBody(ctx, s.create.schema);
      const result = await s.create.run(deps, actor, input);
      ctx.status = changeOf(result).created === false ? 200 : 201;
      ctx.body = answer(result);
    });

    router.get(`${base}/:id`, auth, async (ctx) => {
      const actor = actorOf(ctx);
      authorize(actor, 'channels.manage');
      const channel = await findChannel(actor, s.type, parseId(ctx.params.id));
      if (!channel) throw errors.notFound(s.notFound);
      ctx.body = { data: present(channel) };
    });

    const update = s.update;
    if (update) {
      router.put(`${base}/:id`, auth, async (ctx) => {
        const actor = actorOf(ctx);
        authorize(actor, 'channels.manage');
        const id = parseId(ctx.params.id);
        const input = parseBody(ctx, update.schema);
        ctx.body = answer(await update.run(deps, actor, id, input));
      });
    }

    const remove = s.remove;
    if (remove) {
      router.delete(`${base}/:id`, auth, async (ctx) => {
        const actor = actorOf(ctx);
        authorize(actor, 'channels.manage');
        ctx.body = answer(await remove(deps, actor, parseId(ctx.params.id)));
      });
    }
  }
  return router;
}
