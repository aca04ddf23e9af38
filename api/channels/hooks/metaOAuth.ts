import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { exchangeCode, GraphCallError, longLivedUserToken } from '../meta/client';
import { DEFAULT_RETURN_TO, oauthRedirectUri, readOAuthState, requireMetaApp, sealLoginSession } from '../meta/oauth';

function backTo(deps: AppDeps, returnTo: string, params: Record<string, string>): string {
  const url = new URL(`${deps.config.publicUrl}${returnTo}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * `GET /api/hooks/meta/oauth`: Facebook's login comes back here (docs/channels/meta.md). The code becomes a
 * long-lived user token, sealed into a short login session the settings screen lists the pages of; any
 * failure goes back to the screen with `metaError`.
 */
export async function metaOAuthReturn(deps: AppDeps, ctx: Context): Promise<void> {
  const state = await readOAuthState(deps.config, ctx.query.state);
  if (!state) {
    ctx.redirect(backTo(deps, DEFAULT_RETURN_TO, { metaError: 'O login com o Facebook expirou ou não foi iniciado aqui. Tente de novo.' }));
    return;
  }
  const code = ctx.query.code;
  if (typeof code !== 'string' || !code) {
    const reason = ctx.query.error_description ?? ctx.query.error_reason ?? ctx.query.error;
    ctx.redirect(backTo(deps, state.returnTo, { metaError: typeof reason === 'string' && reason ? reason.slice(0, 300) : 'O login com o Facebook foi cancelado.' }));
    return;
  }
  try {
    const app = requireMetaApp(deps.config);
    const short = await exchangeCode(deps.config, { ...app, redirectUri: oauthRedirectUri(deps.config) }, code);
    const userToken = await longLivedUserToken(deps.config, app, short);
    ctx.redirect(backTo(deps, state.returnTo, { metaSession: sealLoginSession(deps.config, state, userToken) }));
  } catch (err) {
    deps.logger.warn({ err }, 'meta oauth code exchange failed');
    const message = err instanceof GraphCallError ? (err.error?.message ?? `erro HTTP ${err.status}`) : err instanceof Error ? err.message : 'erro desconhecido';
    ctx.redirect(backTo(deps, state.returnTo, { metaError: `O Facebook recusou o login: ${message}`.slice(0, 300) }));
  }
}
