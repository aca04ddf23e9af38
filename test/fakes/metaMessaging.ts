import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { LoopbackFake } from './loopbackFake';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG (8-bit RGB, one colour), as small as Meta's 50×50 page pictures are: browsers decode it. */
export function solidPng(size = 50, rgb: [number, number, number] = [randomBytes(1)[0], randomBytes(1)[0], randomBytes(1)[0]]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => rgb[i % 3])]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * A loopback stand-in for Meta's Graph API as the Messenger Platform and Instagram Messaging docs describe
 * it (not as our code calls it):
 * - the login dialog `GET /dialog/oauth?client_id&redirect_uri&state&scope` sends the browser back to
 *   `redirect_uri?code&state` (or, refused, `?error=access_denied&error_code=200&error_description&error_reason=user_denied&state`);
 * - `GET /oauth/access_token` exchanges a code (client_id, client_secret, the same redirect_uri) or a user
 *   token (`grant_type=fb_exchange_token`) for `{access_token, token_type, expires_in}`;
 * - `GET /me/accounts` lists the user's pages `{data: [{id, name, access_token, category, tasks, picture: {data: {url}}, instagram_business_account}], paging}`;
 * - `GET /{page-id}?fields=instagram_business_account{…}`, `POST|DELETE /{page-id}/subscribed_apps` → `{success: true}`;
 * - `GET /{psid}?fields=first_name,last_name,profile_pic` (Messenger) and `GET /{igsid}?fields=name,username,profile_pic` (Instagram);
 * - the Send API `POST /{page-id}/messages` → `{recipient_id, message_id}`, or Graph's error body
 *   `{error: {message, type, code, error_subcode, fbtrace_id}}` (10/2018278 outside the window, 190 token, 613 rate limit);
 *   an attachment sent by URL (`message.attachment.payload.url`) is downloaded by Meta during the call, and
 *   one it cannot download (no answer, not 200) refuses the send with 100/2018008 "Failed to fetch the file from the url";
 * - attachment URLs and pictures (pages', Instagram accounts', people's `profile_pic`) on its own "CDN"
 *   (`GET /cdn/{id}`), real image bytes with their content type; an unknown name is 404.
 * Tokens travel as `Authorization: Bearer` or `access_token` in the query, as Graph accepts both.
 */
export interface FakePage {
  id: string;
  name: string;
  token: string;
  picture: string;
  instagram?: { id: string; username: string; name: string; picture: string };
}

export interface FakeSend {
  pageId: string;
  body: { recipient?: { id?: string }; messaging_type?: string; tag?: string; reply_to?: { mid?: string }; message?: { text?: string; attachment?: { type: string; payload: { url: string } } } };
  id: string;
  /** What the fake downloaded from an attachment's URL (Meta fetches it while sending). */
  fetched?: { status: number; type: string | null; bytes: Buffer };
}

/** GET of an attachment URL as Meta's fetcher does it: no redirects to follow blindly, a bounded wait. */
async function fetchAttachment(url: string): Promise<FakeSend['fetched'] | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  } catch {
    return undefined;
  }
}

export function graphErrorBody(code: number, message: string, subcode?: number, type = 'OAuthException') {
  return { error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: randomBytes(8).toString('base64url') } };
}

export const MESSAGING_ERRORS = {
  outsideWindow: { status: 400, body: graphErrorBody(10, '(#10) This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview', 2018278) },
  /** Instagram's refusal past the window (Messenger API for Instagram): code 10, subcode 2534022. */
  instagramOutsideWindow: { status: 400, body: graphErrorBody(10, '(#10) This message is sent outside of allowed window.', 2534022) },
  tokenRevoked: { status: 400, body: graphErrorBody(190, 'Error validating access token: The user has not authorized application 1234567890.', 458) },
  rateLimit: { status: 400, body: graphErrorBody(613, 'Calls to this api have exceeded the rate limit.') },
  /** The Send API could not download `attachment.payload.url` (Messenger error 100 / 2018008). */
  attachmentNotFetched: { status: 400, body: graphErrorBody(100, '(#100) Failed to fetch the file from the url', 2018008) },
  unavailable: { status: 500, body: graphErrorBody(2, 'An unexpected error has occurred. Please retry your request later.', undefined, 'OAuthException') },
};

export class MetaMessagingFake extends LoopbackFake {
  appId = '1234567890';
  appSecret = 'segredo-do-app-meta';
  readonly pages: FakePage[] = [];
  readonly sent: FakeSend[] = [];
  readonly subscriptions = new Map<string, string[]>();
  readonly unsubscribed: string[] = [];
  readonly profileLookups: string[] = [];
  /** Every attachment URL a send named, with the status Meta's fetch of it got (0: no answer). */
  readonly attachmentFetches: { url: string; status: number }[] = [];
  readonly profiles = new Map<string, Record<string, string>>();
  /** What the next Send API calls answer, in order: an error, or null for a call that goes through. */
  readonly nextSendErrors: ({ status: number; body: unknown } | null)[] = [];
  /** While set, attachment downloads wait for it (a slow Meta CDN, held as long as a test needs). */
  cdnHold: Promise<void> | undefined;
  /** The next login dialog refuses (the person clicked "Cancel"). */
  denyNextLogin = false;
  private readonly codes = new Map<string, { redirectUri: string; userToken: string }>();
  private readonly userTokens = new Set<string>();
  private readonly revoked = new Set<string>();
  private readonly cdn = new Map<string, { bytes: Buffer; mime: string }>();

  addPage(page: Partial<FakePage> & { name: string }, withInstagram?: { username: string }): FakePage {
    const id = page.id ?? String(100_000_000_000_000 + Math.floor(Math.random() * 10 ** 14));
    const p: FakePage = {
      id,
      name: page.name,
      token: page.token ?? `EAAPage${randomBytes(12).toString('hex')}`,
      picture: page.picture ?? this.addPicture(`avatar-${id}.png`),
      ...(withInstagram ? { instagram: { id: String(17_841_400_000_000_000 + Math.floor(Math.random() * 10 ** 9)), username: withInstagram.username, name: page.name, picture: this.addPicture(`ig-${id}.png`) } } : {}),
    };
    this.pages.push(p);
    return p;
  }

  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  addAttachment(bytes: Buffer, mime: string, id = randomBytes(8).toString('hex')): string {
    this.cdn.set(id, { bytes, mime });
    return `${this.url}/cdn/${id}`;
  }

  /** A picture on the CDN (a PNG of its own colour unless `bytes` is given); answers its URL. */
  addPicture(name = `pic-${randomBytes(6).toString('hex')}.png`, bytes = solidPng()): string {
    return this.addAttachment(bytes, 'image/png', name);
  }

  /** The bytes the CDN serves at one of its URLs. */
  cdnBytes(url: string): Buffer | undefined {
    return this.cdn.get(url.split('/cdn/')[1] ?? '')?.bytes;
  }

  private tokenOf(req: http.IncomingMessage, url: URL): string | undefined {
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Bearer ')) return auth.slice(7);
    return url.searchParams.get('access_token') ?? undefined;
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname.split('/').filter(Boolean);
    const q = url.searchParams;

    if (req.method === 'GET' && path[0] === 'dialog' && path[1] === 'oauth') {
      const redirect = new URL(q.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', q.get('state') ?? '');
      if (q.get('client_id') !== this.appId) {
        res.writeHead(400, { 'content-type': 'text/html' });
        return void res.end('<p>Invalid App ID</p>');
      }
      if (this.denyNextLogin) {
        this.denyNextLogin = false;
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('error_code', '200');
        redirect.searchParams.set('error_description', 'Permissions error');
        redirect.searchParams.set('error_reason', 'user_denied');
      } else {
        const code = randomBytes(24).toString('base64url');
        this.codes.set(code, { redirectUri: q.get('redirect_uri') ?? '', userToken: `EAAUser${randomBytes(12).toString('hex')}` });
        redirect.searchParams.set('code', code);
      }
      res.writeHead(302, { location: redirect.toString() });
      return void res.end();
    }

    if (req.method === 'GET' && path[0] === 'cdn' && path.length === 2) {
      const item = this.cdn.get(path[1]);
      if (this.cdnHold) await this.cdnHold;
      if (!item) {
        res.writeHead(404);
        return void res.end();
      }
      res.writeHead(200, { 'content-type': item.mime, 'content-length': String(item.bytes.length) });
      return void res.end(item.bytes);
    }

    if (req.method === 'GET' && path[0] === 'oauth' && path[1] === 'access_token') {
      if (q.get('client_id') !== this.appId || q.get('client_secret') !== this.appSecret) return json(400, graphErrorBody(101, 'Error validating client secret.'));
      if (q.get('grant_type') === 'fb_exchange_token') {
        const short = q.get('fb_exchange_token') ?? '';
        if (!this.userTokens.has(short)) return json(400, graphErrorBody(190, 'Invalid OAuth access token.'));
        const long = `${short}-long`;
        this.userTokens.add(long);
        return json(200, { access_token: long, token_type: 'bearer', expires_in: 5183944 });
      }
      const grant = this.codes.get(q.get('code') ?? '');
      if (!grant) return json(400, graphErrorBody(100, 'Invalid verification code format.'));
      if (grant.redirectUri !== q.get('redirect_uri')) return json(400, graphErrorBody(100, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request'));
      this.codes.delete(q.get('code')!);
      this.userTokens.add(grant.userToken);
      return json(200, { access_token: grant.userToken, token_type: 'bearer', expires_in: 5183944 });
    }

    const token = this.tokenOf(req, url);
    if (!token || this.revoked.has(token)) return json(MESSAGING_ERRORS.tokenRevoked.status, MESSAGING_ERRORS.tokenRevoked.body);

    if (req.method === 'GET' && path[0] === 'me' && path[1] === 'accounts') {
      if (!this.userTokens.has(token)) return json(400, graphErrorBody(190, 'Invalid OAuth access token - Cannot parse access token'));
      return json(200, {
        data: this.pages.map((p) => ({
          access_token: p.token,
          category: 'Empresa local',
          category_list: [{ id: '2500', name: 'Empresa local' }],
          name: p.name,
          id: p.id,
          tasks: ['ANALYZE', 'ADVERTISE', 'MESSAGING', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'],
          picture: { data: { height: 50, is_silhouette: false, url: p.picture, width: 50 } },
          ...(p.instagram ? { instagram_business_account: { id: p.instagram.id, username: p.instagram.username, name: p.instagram.name, profile_picture_url: p.instagram.picture } } : {}),
        })),
        paging: { cursors: { before: 'QVFIUk', after: 'QVFIUl' } },
      });
    }

    const page = this.pages.find((p) => p.id === path[0]);
    if (page && page.token !== token) return json(400, graphErrorBody(190, 'Invalid OAuth access token - Cannot parse access token'));

    if (page && path[1] === 'subscribed_apps') {
      if (req.method === 'POST') {
        this.subscriptions.set(page.id, (q.get('subscribed_fields') ?? '').split(',').filter(Boolean));
        return json(200, { success: true });
      }
      if (req.method === 'DELETE') {
        this.subscriptions.delete(page.id);
        this.unsubscribed.push(page.id);
        return json(200, { success: true });
      }
    }

    if (page && req.method === 'POST' && path[1] === 'messages') {
      const body = JSON.parse(raw.toString('utf8') || '{}') as FakeSend['body'];
      const failure = this.nextSendErrors.shift();
      if (failure) return json(failure.status, failure.body);
      if (!body.recipient?.id || !body.message || (!body.message.text && !body.message.attachment)) return json(400, graphErrorBody(100, '(#100) The parameter recipient is required'));
      if (body.messaging_type === 'MESSAGE_TAG' && body.tag !== 'HUMAN_AGENT') return json(400, graphErrorBody(100, '(#100) Tag is invalid'));
      // Attachment by URL: Meta downloads the file when the message is sent, and refuses the send when it cannot.
      let fetched: FakeSend['fetched'];
      const attachmentUrl = body.message.attachment?.payload?.url;
      if (attachmentUrl !== undefined) {
        fetched = await fetchAttachment(attachmentUrl);
        this.attachmentFetches.push({ url: attachmentUrl, status: fetched?.status ?? 0 });
        if (!fetched || fetched.status !== 200) return json(400, MESSAGING_ERRORS.attachmentNotFetched.body);
      }
      const id = `m_${randomBytes(18).toString('base64url')}`;
      this.sent.push({ pageId: page.id, body, id, ...(fetched ? { fetched } : {}) });
      return json(200, { recipient_id: body.recipient.id, message_id: id });
    }

    if (page && req.method === 'GET' && path.length === 1) {
      const ig = page.instagram;
      return json(200, { id: page.id, ...(ig ? { instagram_business_account: { id: ig.id, username: ig.username, name: ig.name, profile_picture_url: ig.picture } } : {}) });
    }

    if (req.method === 'GET' && path.length === 1 && this.profiles.has(path[0])) {
      if (!this.pages.some((p) => p.token === token)) return json(400, graphErrorBody(190, 'Invalid OAuth access token'));
      this.profileLookups.push(path[0]);
      const fields = (q.get('fields') ?? '').split(',');
      const profile = this.profiles.get(path[0])!;
      return json(200, { id: path[0], ...Object.fromEntries(fields.filter((f) => profile[f] !== undefined).map((f) => [f, profile[f]])) });
    }
    json(400, graphErrorBody(100, `(#100) Unsupported request - method type: ${req.method?.toLowerCase()}`, 33, 'GraphMethodException'));
  }
}

/** A `page` webhook batch (Messenger): one entry per page, each with its `messaging` events. */
export function pageBatch(entries: { pageId: string; messaging: Record<string, unknown>[] }[]) {
  return { object: 'page', entry: entries.map((e) => ({ id: e.pageId, time: Date.now(), messaging: e.messaging })) };
}

/** An `instagram` webhook batch: entry id is the Instagram professional account id. */
export function instagramBatch(entries: { accountId: string; messaging: Record<string, unknown>[] }[]) {
  return { object: 'instagram', entry: entries.map((e) => ({ id: e.accountId, time: Date.now(), messaging: e.messaging })) };
}

export const newMid = () => `m_${randomBytes(18).toString('base64url')}`;

/** A customer's message event: sender is the person (PSID / IGSID), recipient the page / account. */
export function messageEvent(from: string, to: string, message: Record<string, unknown>) {
  return { sender: { id: from }, recipient: { id: to }, timestamp: Date.now(), message: { mid: newMid(), ...message } };
}

export { hubSignature, postSignedWebhook as postMetaWebhook } from './metaWebhook';
