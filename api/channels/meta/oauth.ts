import { SignJWT, jwtVerify } from 'jose';
import type { Config } from '../../config';
import { errors } from '../../http/errors';
import type { Actor } from '../../policy/policy';
import { openSecret, sealSecret } from '../secretBox';

/**
 * Meta's server-side login flow (docs/channels/meta.md "Connecting a page"):
 * 1. the screen asks `GET /api/integrations/facebook/oauth?returnTo=…` for the dialog URL; its `state` is
 *    a 10-minute JWT naming the operator, the workspace and the screen to come back to;
 * 2. Meta sends the browser to `GET /api/hooks/meta/oauth?code&state` (or `?error…`); the code is exchanged
 *    for a long-lived user token there, never in the browser;
 * 3. the browser comes back to the screen with `?metaSession=…`: the user token sealed with the channel
 *    key together with who may use it and until when (30 minutes) — opaque to the browser, useless to
 *    another operator, and no table to clean;
 * 4. the page chooser lists the pages with that session and saves the chosen one.
 */
type MetaConfig = Pick<Config, 'metaAppId' | 'metaAppSecret' | 'metaVerifyToken' | 'metaOauthUrl' | 'publicUrl' | 'jwtSecret' | 'channelSecretsKey'>;

/** Messenger and Instagram messaging through a page (Meta's permission names). */
export const OAUTH_SCOPES = ['pages_show_list', 'pages_messaging', 'pages_manage_metadata', 'pages_read_engagement', 'instagram_basic', 'instagram_manage_messages', 'business_management'];

/** The screens the login may come back to. */
const RETURN_TO = /^\/(settings\/channels\/add\/(facebook|instagram)|power-ups\/facebook(\/\d{1,10})?)$/;
export const DEFAULT_RETURN_TO = '/settings/channels/add/facebook';

export function isReturnTo(value: unknown): value is string {
  return typeof value === 'string' && RETURN_TO.test(value);
}

/** The variables an administrator still has to set for Messenger and Instagram to work. */
export function missingMetaSettings(config: Pick<Config, 'metaAppId' | 'metaAppSecret' | 'metaVerifyToken'>): string[] {
  return [
    ['META_APP_ID', config.metaAppId],
    ['META_APP_SECRET', config.metaAppSecret],
    ['META_VERIFY_TOKEN', config.metaVerifyToken],
  ]
    .filter(([, v]) => !v)
    .map(([k]) => k as string);
}

/**
 * What the server's administrator must do, in words a workspace manager can forward to them: the Meta app,
 * the variables still missing and the webhook address Meta must call (no path of our repository).
 */
export function notConfiguredMessage(missing: string[], publicUrl: string): string {
  return (
    'O Facebook e o Instagram ainda não foram configurados neste servidor. O administrador do servidor precisa criar um app ' +
    `na Meta (developers.facebook.com) com Messenger e Instagram, definir ${missing.join(', ')} nas variáveis do servidor e ` +
    `cadastrar o webhook ${publicUrl}/api/hooks/meta no app.`
  );
}

/** Throws the explanation when the app is not configured; answers its id and secret otherwise. */
export function requireMetaApp(config: MetaConfig): { appId: string; appSecret: string } {
  const missing = missingMetaSettings(config);
  if (missing.length) throw errors.badRequest(notConfiguredMessage(missing, config.publicUrl));
  return { appId: config.metaAppId!, appSecret: config.metaAppSecret! };
}

export function oauthRedirectUri(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}/api/hooks/meta/oauth`;
}

const key = (config: Pick<Config, 'jwtSecret'>) => new TextEncoder().encode(`meta-oauth:${config.jwtSecret}`);

/** The dialog URL the browser is sent to, with a signed `state`. */
export async function oauthDialogUrl(config: MetaConfig, actor: Actor, returnTo: string): Promise<string> {
  const { appId } = requireMetaApp(config);
  const state = await new SignJWT({ ws: actor.workspaceId, op: actor.operatorId, rt: returnTo })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('balcao-meta-oauth')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key(config));
  const url = new URL(config.metaOauthUrl);
  url.searchParams.set('client_id', appId);
  url.searchParams.set('redirect_uri', oauthRedirectUri(config));
  url.searchParams.set('state', state);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', OAUTH_SCOPES.join(','));
  return url.toString();
}

export interface OAuthState {
  workspaceId: number;
  operatorId: number;
  returnTo: string;
}

/** The state Meta hands back, if it is ours, unexpired and untouched. */
export async function readOAuthState(config: Pick<Config, 'jwtSecret'>, state: unknown): Promise<OAuthState | undefined> {
  if (typeof state !== 'string' || state.length > 2048) return undefined;
  try {
    const { payload } = await jwtVerify(state, key(config), { issuer: 'balcao-meta-oauth', algorithms: ['HS256'] });
    if (typeof payload.ws !== 'number' || typeof payload.op !== 'number' || !isReturnTo(payload.rt)) return undefined;
    return { workspaceId: payload.ws, operatorId: payload.op, returnTo: payload.rt };
  } catch {
    return undefined;
  }
}

const SESSION_MS = 30 * 60_000;

export function sealLoginSession(config: Pick<Config, 'channelSecretsKey'>, state: OAuthState, userToken: string, now = Date.now()): string {
  return sealSecret(config, JSON.stringify({ ws: state.workspaceId, op: state.operatorId, t: userToken, exp: now + SESSION_MS }));
}

export const SESSION_EXPIRED = 'A conexão com o Facebook expirou. Clique em "Conectar com o Facebook" de novo.';

/** The user token of a login session, only for the operator and workspace that made it and only before it expires. */
export function openLoginSession(config: Pick<Config, 'channelSecretsKey'>, actor: Actor, session: string, now = Date.now()): string {
  let parsed: { ws?: unknown; op?: unknown; t?: unknown; exp?: unknown };
  try {
    parsed = JSON.parse(openSecret(config, session)) as typeof parsed;
  } catch {
    throw errors.field('session', SESSION_EXPIRED);
  }
  if (parsed.ws !== actor.workspaceId || parsed.op !== actor.operatorId || typeof parsed.t !== 'string' || typeof parsed.exp !== 'number' || parsed.exp < now) {
    throw errors.field('session', SESSION_EXPIRED);
  }
  return parsed.t;
}
