import Router from '@koa/router';
import getRawBody from 'raw-body';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { validHubSignature } from '../hubSignature';
import { processMetaBatch, storeMetaBatch } from './batches';
import { exchangeCode, GraphCallError, longLivedUserToken } from './client';
import { DEFAULT_RETURN_TO, oauthRedirectUri, readOAuthState, requireMetaApp, sealLoginSession } from './oauth';
import { checkMetaBatch } from './webhookSchema';

function backTo(deps: AppDeps, returnTo: string, params: Record<string, string>): string {
  const url = new URL(`${deps.config.publicUrl}${returnTo}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Meta's side: the webhook (`GET` handshake with META_VERIFY_TOKEN, `POST` signed batches) and the OAuth
 * redirect. A POST is checked with X-Hub-Signature-256 over the raw bytes before anything parses it (the
 * JSON body parser skips /api/hooks/); a good one is stored in one insert and answered 200 at once, then
 * processed (api/channels/meta/batches.ts; the api's sweep retries what did not finish).
 */
export function metaHooksRouter(deps: AppDeps) {
  const router = new Router();

  router.get('/hooks/meta', async (ctx) => {
    const q = ctx.query;
    const expected = deps.config.metaVerifyToken;
    if (!expected) throw errors.notFound();
    const given = q['hub.verify_token'];
    if (q['hub.mode'] !== 'subscribe' || typeof given !== 'string' || given !== expected) throw errors.forbidden('Token de verificação inválido.');
    ctx.type = 'text/plain';
    ctx.body = String(q['hub.challenge'] ?? '');
  });

  router.post('/hooks/meta', async (ctx) => {
    const secret = deps.config.metaAppSecret;
    if (!secret) throw errors.notFound();
    let raw: Buffer;
    try {
      raw = await getRawBody(ctx.req, { limit: '5mb' });
    } catch {
      throw errors.badRequest('Corpo inválido.');
    }
    if (!validHubSignature(raw, ctx.get('x-hub-signature-256') || undefined, secret)) throw errors.authentication('Assinatura inválida.');
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw errors.badRequest('JSON inválido.');
    }
    const checked = checkMetaBatch(json);
    if (!checked) throw errors.badRequest('JSON inválido.');
    const { payload, skipped } = checked;
    if (payload.object !== 'page' && payload.object !== 'instagram') {
      ctx.body = { data: { received: true } };
      return;
    }
    // Meta would send the batch again for hours: a malformed event is left out, the rest handled (docs/channels/meta.md).
    if (skipped.length) deps.logger.warn({ skipped: skipped.slice(0, 20) }, 'meta webhook: malformed events left out');
    const id = await storeMetaBatch(deps, payload);
    ctx.body = { data: { received: true } };
    setImmediate(() => void processMetaBatch(deps, id, payload));
  });

  router.get('/hooks/meta/oauth', async (ctx) => {
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
  });
  return router;
}
