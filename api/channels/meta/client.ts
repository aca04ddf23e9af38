import type { Config } from '../../config';
import { ChannelSendError } from '../sendErrors';
import { MEDIA_LIMIT_BYTES, providerFetch, readCappedBody } from '../providerHttp';
import { messagingSendError, type GraphError } from './graphErrors';

/**
 * Meta's Graph API for Messenger and Instagram (docs/channels/meta.md), at META_GRAPH_URL like the
 * WhatsApp Cloud lines. The base is operator configuration, so it is called directly (tests point it at
 * a loopback fake). Tokens go in the Authorization header, except where the OAuth docs put the app secret
 * in the query (the code exchange).
 */
type GraphConfig = Pick<Config, 'metaGraphUrl'>;

/** A Graph call that did not succeed; `error` is Meta's error object when it sent one. */
export class GraphCallError extends Error {
  constructor(
    readonly status: number,
    readonly error: GraphError | undefined,
  ) {
    super(error?.message ?? `Graph API HTTP ${status}`);
    this.name = 'GraphCallError';
  }
}

function graphUrl(config: GraphConfig, path: string, query: Record<string, string> = {}): string {
  const url = new URL(`${config.metaGraphUrl}/${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

async function call<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const { token, ...rest } = init;
  const headers: Record<string, string> = { ...(rest.headers as Record<string, string> | undefined) };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await providerFetch('Meta', url, { ...rest, headers });
  const body = (await res.json().catch(() => undefined)) as (T & { error?: GraphError }) | undefined;
  if (!res.ok || !body || body.error) throw new GraphCallError(res.status, body?.error);
  return body;
}

export interface OAuthApp {
  appId: string;
  appSecret: string;
  redirectUri: string;
}

/** GET /oauth/access_token with the code the login dialog returned: a short-lived user token. */
export async function exchangeCode(config: GraphConfig, app: OAuthApp, code: string): Promise<string> {
  const body = await call<{ access_token?: string }>(
    graphUrl(config, 'oauth/access_token', { client_id: app.appId, redirect_uri: app.redirectUri, client_secret: app.appSecret, code }),
  );
  if (!body.access_token) throw new GraphCallError(200, { message: 'no access_token in the answer' });
  return body.access_token;
}

/**
 * GET /oauth/access_token?grant_type=fb_exchange_token: a long-lived user token. Page tokens read with a
 * long-lived user token do not expire (Meta's "long-lived page access token").
 */
export async function longLivedUserToken(config: GraphConfig, app: Omit<OAuthApp, 'redirectUri'>, userToken: string): Promise<string> {
  const body = await call<{ access_token?: string }>(
    graphUrl(config, 'oauth/access_token', { grant_type: 'fb_exchange_token', client_id: app.appId, client_secret: app.appSecret, fb_exchange_token: userToken }),
  );
  return body.access_token ?? userToken;
}

export interface GraphInstagramAccount {
  id: string;
  username?: string;
  name?: string;
  profile_picture_url?: string;
}

export interface GraphPage {
  id: string;
  name: string;
  access_token: string;
  picture?: { data?: { url?: string } };
  instagram_business_account?: GraphInstagramAccount;
}

const PAGE_FIELDS = 'id,name,access_token,picture{url},instagram_business_account{id,username,name,profile_picture_url}';

/** GET /me/accounts: the pages the user manages, each with its page token, picture and linked Instagram account. Follows `paging.next` (at most 10 pages of 100). */
export async function listPages(config: GraphConfig, userToken: string): Promise<GraphPage[]> {
  const pages: GraphPage[] = [];
  let url: string | undefined = graphUrl(config, 'me/accounts', { fields: PAGE_FIELDS, limit: '100' });
  for (let i = 0; url && i < 10; i++) {
    const body: { data?: GraphPage[]; paging?: { next?: string } } = await call(url, { token: userToken });
    pages.push(...(body.data ?? []).filter((p) => p?.id && p.access_token));
    const next: string | undefined = body.paging?.next;
    // Only follow pages of the configured Graph base (the next link is Meta's own).
    url = next && next.startsWith(config.metaGraphUrl) ? next : undefined;
  }
  return pages;
}

/** GET /{page-id}?fields=instagram_business_account{…}: the Instagram professional account linked to a page, if any. */
export async function pageInstagramAccount(config: GraphConfig, pageId: string, pageToken: string): Promise<GraphInstagramAccount | undefined> {
  const body = await call<{ instagram_business_account?: GraphInstagramAccount }>(
    graphUrl(config, encodeURIComponent(pageId), { fields: 'instagram_business_account{id,username,name,profile_picture_url}' }),
    { token: pageToken },
  );
  return body.instagram_business_account?.id ? body.instagram_business_account : undefined;
}

/** The webhook fields a page is subscribed to: messages, echoes, receipts (Messenger) and Instagram's seen/referral events. */
export const PAGE_SUBSCRIBED_FIELDS = ['messages', 'message_echoes', 'message_deliveries', 'message_reads', 'messaging_postbacks', 'messaging_referrals'];

/** POST /{page-id}/subscribed_apps: this app receives the page's messaging webhooks. */
export async function subscribePage(config: GraphConfig, pageId: string, pageToken: string): Promise<void> {
  await call(graphUrl(config, `${encodeURIComponent(pageId)}/subscribed_apps`, { subscribed_fields: PAGE_SUBSCRIBED_FIELDS.join(',') }), { method: 'POST', token: pageToken });
}

/** DELETE /{page-id}/subscribed_apps: the page stops sending this app its webhooks. */
export async function unsubscribePage(config: GraphConfig, pageId: string, pageToken: string): Promise<void> {
  await call(graphUrl(config, `${encodeURIComponent(pageId)}/subscribed_apps`), { method: 'DELETE', token: pageToken });
}

/**
 * POST /{page-id}/messages (the Send API; Instagram uses the same endpoint with the page token). Answers
 * the `message_id`. Errors become the delivery path's ChannelSendError (graphErrors.ts).
 */
export async function sendPageMessage(config: GraphConfig, platform: 'Facebook' | 'Instagram', pageId: string, pageToken: string, body: Record<string, unknown>): Promise<string> {
  let answer: { message_id?: string };
  try {
    answer = await call(graphUrl(config, `${encodeURIComponent(pageId)}/messages`), {
      method: 'POST',
      token: pageToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    if (err instanceof GraphCallError) throw messagingSendError(platform, err.status, err.error);
    throw err;
  }
  if (!answer.message_id) throw new ChannelSendError(`O ${platform} não devolveu o id da mensagem.`, { transient: true });
  return answer.message_id;
}

export interface GraphProfile {
  name: string | null;
  picture: string | null;
}

/**
 * The customer's name and picture: Messenger's User Profile API (`first_name,last_name,profile_pic` of
 * the PSID) or Instagram's (`name,username,profile_pic` of the IGSID).
 */
export async function userProfile(config: GraphConfig, platform: 'facebook' | 'instagram', userId: string, pageToken: string): Promise<GraphProfile> {
  const fields = platform === 'facebook' ? 'first_name,last_name,profile_pic' : 'name,username,profile_pic';
  const body = await call<{ first_name?: string; last_name?: string; name?: string; username?: string; profile_pic?: string }>(
    graphUrl(config, encodeURIComponent(userId), { fields }),
    { token: pageToken },
  );
  const name = platform === 'facebook' ? [body.first_name, body.last_name].filter(Boolean).join(' ') : (body.name || body.username || '');
  return { name: name || null, picture: body.profile_pic ?? null };
}

/** Downloads an attachment from the URL in the webhook (Meta's CDN), at most 16 MB. */
export async function downloadAttachment(url: string, maxBytes = MEDIA_LIMIT_BYTES): Promise<{ bytes: Buffer; mime: string }> {
  const res = await providerFetch('Meta', url);
  if (!res.ok || !res.body) throw new GraphCallError(res.status, undefined);
  const bytes = await readCappedBody(res.body, res.headers.get('content-length'), maxBytes);
  return { bytes, mime: (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0].trim() };
}
