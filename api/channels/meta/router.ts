import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseBody, parseId, parseQuery } from '../../http/validate';
import { findChannel } from '../queries';
import { authorize } from '../../policy/policy';
import { Channel } from '../../models/Channel';
import { scoped } from '../../db/scope';
import { connectFacebookPage, deleteFacebookChannel, listLoginPages, presentFacebookChannel } from '../facebook/connectPage';
import { FacebookOAuthStartSchema, FacebookPageConnectSchema, FacebookPagesQuerySchema } from '../facebook/schema';
import { connectInstagramAccount, deleteInstagramChannel, listInstagramAccounts, presentInstagramChannel } from '../instagram/connectAccount';
import { InstagramConnectSchema } from '../instagram/schema';
import { DEFAULT_RETURN_TO, isReturnTo, missingMetaSettings, notConfiguredMessage, oauthDialogUrl, oauthRedirectUri } from './oauth';

/** Settings routes of the Facebook and Instagram channels (docs/channels/meta.md). */
export function metaIntegrationRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/integrations/meta/settings', auth, async (ctx) => {
    authorize(actorOf(ctx), 'channels.manage');
    const missing = missingMetaSettings(deps.config);
    ctx.body = {
      data: {
        configured: missing.length === 0,
        missing,
        message: missing.length ? notConfiguredMessage(missing) : null,
        webhookUrl: `${deps.config.publicUrl}/api/hooks/meta`,
        oauthRedirectUri: oauthRedirectUri(deps.config),
        humanAgentTag: deps.config.metaHumanAgentTag,
      },
    };
  });

  router.get('/integrations/facebook/oauth', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const { returnTo } = parseQuery(ctx, FacebookOAuthStartSchema);
    if (returnTo !== undefined && !isReturnTo(returnTo)) throw errors.field('returnTo', 'Tela de retorno inválida.');
    ctx.body = { data: { url: await oauthDialogUrl(deps.config, actor, returnTo ?? DEFAULT_RETURN_TO) } };
  });

  router.get('/integrations/facebook/pages', auth, async (ctx) => {
    const { session } = parseQuery(ctx, FacebookPagesQuerySchema);
    ctx.body = { data: await listLoginPages(deps, actorOf(ctx), session) };
  });

  router.get('/integrations/facebook', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const rows = (await scoped(Channel, actor).where('channels.type', 'facebook').orderBy('channels.id')) as Channel[];
    ctx.body = { data: rows.map(presentFacebookChannel), matchCount: rows.length, totalCount: rows.length };
  });

  router.post('/integrations/facebook', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, FacebookPageConnectSchema);
    const { channel, created } = await connectFacebookPage(deps, actor, input);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: presentFacebookChannel(channel) };
  });

  router.get('/integrations/facebook/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'facebook', parseId(ctx.params.id));
    if (!channel) throw errors.notFound();
    ctx.body = { data: presentFacebookChannel(channel) };
  });

  router.delete('/integrations/facebook/:id', auth, async (ctx) => {
    const { channel, unsubscribed } = await deleteFacebookChannel(deps, actorOf(ctx), parseId(ctx.params.id));
    ctx.body = { data: { ...presentFacebookChannel(channel), unsubscribed } };
  });

  router.get('/integrations/instagram/accounts', auth, async (ctx) => {
    const { accounts } = await listInstagramAccounts(deps, actorOf(ctx));
    ctx.body = { data: accounts };
  });

  router.post('/integrations/instagram', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const input = parseBody(ctx, InstagramConnectSchema);
    const { channel, created } = await connectInstagramAccount(deps, actor, input);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: presentInstagramChannel(channel) };
  });

  router.get('/integrations/instagram/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const channel = await findChannel(actor, 'instagram', parseId(ctx.params.id));
    if (!channel) throw errors.notFound();
    ctx.body = { data: presentInstagramChannel(channel) };
  });

  router.delete('/integrations/instagram/:id', auth, async (ctx) => {
    const { channel, unsubscribed } = await deleteInstagramChannel(deps, actorOf(ctx), parseId(ctx.params.id));
    ctx.body = { data: { ...presentInstagramChannel(channel), unsubscribed } };
  });
  return router;
}
