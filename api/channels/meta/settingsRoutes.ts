import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { actorOf, authenticate } from '../../auth/authenticate';
import { errors } from '../../http/errors';
import { parseQuery } from '../../http/validate';
import { authorize } from '../../policy/policy';
import { listLoginPages } from '../facebook/connectPage';
import { FacebookOAuthStartSchema, FacebookPagesQuerySchema } from '../facebook/schema';
import { listInstagramAccounts } from '../instagram/connectAccount';
import { DEFAULT_RETURN_TO, isReturnTo, missingMetaSettings, notConfiguredMessage, oauthDialogUrl, oauthRedirectUri } from './oauth';

/**
 * The extra routes of the Facebook and Instagram channels (docs/channels/facebook.md,
 * docs/channels/instagram.md): Meta's app settings both screens show, the Facebook login that both start
 * from, the pages of that login, and the Instagram accounts of the connected pages.
 */
export function facebookRoutes(router: Router, deps: AppDeps): void {
  const auth = authenticate(deps);

  router.get('/meta/settings', auth, async (ctx) => {
    authorize(actorOf(ctx), 'channels.manage');
    const missing = missingMetaSettings(deps.config);
    ctx.body = {
      data: {
        configured: missing.length === 0,
        missing,
        message: missing.length ? notConfiguredMessage(missing, deps.config.publicUrl) : null,
        webhookUrl: `${deps.config.publicUrl}/api/hooks/meta`,
        oauthRedirectUri: oauthRedirectUri(deps.config),
        humanAgentTag: deps.config.metaHumanAgentTag,
      },
    };
  });

  router.get('/facebook/oauth', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'channels.manage');
    const { returnTo } = parseQuery(ctx, FacebookOAuthStartSchema);
    if (returnTo !== undefined && !isReturnTo(returnTo)) throw errors.field('returnTo', 'Tela de retorno inválida.');
    ctx.body = { data: { url: await oauthDialogUrl(deps.config, actor, returnTo ?? DEFAULT_RETURN_TO) } };
  });

  router.get('/facebook/pages', auth, async (ctx) => {
    const { session } = parseQuery(ctx, FacebookPagesQuerySchema);
    ctx.body = { data: await listLoginPages(deps, actorOf(ctx), session) };
  });
}

export function instagramRoutes(router: Router, deps: AppDeps): void {
  router.get('/instagram/accounts', authenticate(deps), async (ctx) => {
    const { accounts } = await listInstagramAccounts(deps, actorOf(ctx));
    ctx.body = { data: accounts };
  });
}
