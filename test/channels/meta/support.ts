/** What the Messenger/Instagram tests share: the api wired to the Graph fake, and connecting a page through the real OAuth redirects. */
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../../helpers/api';
import { unique, type TestOperator } from '../../helpers/factories';
import { MetaMessagingFake, type FakePage } from '../../fakes/metaMessaging';
import type { Config } from '../../../api/config';
import { allowLoopbackMetaPicturesForTests } from '../../../api/channels/meta/pictures';

export const VERIFY_TOKEN = 'token-de-verificacao-meta';

export function metaConfig(fake: MetaMessagingFake): Partial<Config> {
  return {
    metaGraphUrl: fake.url,
    metaOauthUrl: `${fake.url}/dialog/oauth`,
    metaAppId: fake.appId,
    metaAppSecret: fake.appSecret,
    metaVerifyToken: VERIFY_TOKEN,
  };
}

export async function startMetaApi(fake: MetaMessagingFake, overrides: Partial<Config> = {}): Promise<TestApi> {
  return startTestApi({ temporalTaskQueue: unique('meta'), ...metaConfig(fake), ...overrides });
}

/**
 * The suite's hooks: before all tests the fake starts and the api on it is handed to `ready`; after them
 * `teardown` runs first, then the api closes and the fake stops. Meanwhile the pictures on the fake's
 * loopback "CDN" may be copied (api/channels/meta/pictures.ts).
 */
export function metaApiHooks(fake: MetaMessagingFake, ready: (api: TestApi) => void | Promise<void>, teardown?: () => Promise<void>): void {
  let api: TestApi | undefined;
  before(async () => {
    allowLoopbackMetaPicturesForTests(true);
    await fake.start();
    api = await startMetaApi(fake);
    await ready(api);
  });
  after(async () => {
    await teardown?.();
    await api?.close();
    await fake.stop();
    allowLoopbackMetaPicturesForTests(false);
  });
}

/**
 * A picture URL the api answered is our copy of the fake's picture at `source`: an avatar of `workspaceId`
 * on our origin, served with the same bytes as an image. Answers its key.
 */
export async function expectOurCopy(api: TestApi, ours: string | null | undefined, source: string, workspaceId: number): Promise<string> {
  const prefix = `${api.config.publicUrl}/api/avatars/`;
  expect(ours, 'a picture of ours').to.be.a('string').and.satisfy((u: string) => u.startsWith(`${prefix}av_`));
  const key = ours!.slice(prefix.length);
  const row = await api.deps.knex('stored_files').where({ key }).first();
  expect(row).to.include({ workspaceId, mime: 'image/png' });
  const res = await fetch(`${api.url}/api/avatars/${key}`);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('image/png');
  const bytes = Buffer.from(await res.arrayBuffer());
  const fakeBytes = await (await fetch(source)).arrayBuffer();
  expect(bytes.equals(Buffer.from(fakeBytes)), 'the same bytes as Meta’s picture').to.equal(true);
  return key;
}

/** Follows one redirect by hand; our own PUBLIC_URL (localhost:port) is read as the api's loopback address. */
async function follow(api: TestApi, url: string): Promise<URL> {
  const target = new URL(url);
  const local = new URL(api.config.publicUrl);
  const fetchUrl = target.origin === local.origin ? `${api.url}${target.pathname}${target.search}` : url;
  const res = await fetch(fetchUrl, { redirect: 'manual' });
  expect(res.status, `${fetchUrl} answered ${res.status}`).to.equal(302);
  return new URL(res.headers.get('location')!);
}

/** The whole login as a browser does it: our start → Meta's dialog → our callback → back on the screen. Answers the screen's URL. */
export async function loginWithFacebook(api: TestApi, owner: TestOperator, returnTo = '/settings/channels/add/facebook'): Promise<URL> {
  const start = await api.request('GET', `/api/integrations/facebook/oauth?returnTo=${encodeURIComponent(returnTo)}`, { token: owner.token });
  expect(start.status, JSON.stringify(start.body)).to.equal(200);
  const callback = await follow(api, start.body.data.url);
  return follow(api, callback.toString());
}

export async function loginSession(api: TestApi, owner: TestOperator): Promise<string> {
  const back = await loginWithFacebook(api, owner);
  const session = back.searchParams.get('metaSession');
  expect(session, back.toString()).to.be.a('string');
  return session!;
}

export interface ConnectedPage {
  id: number;
  pageId: string;
  identifier: string;
  avatar: string | null;
}

export async function connectPage(api: TestApi, owner: TestOperator, page: FakePage): Promise<ConnectedPage> {
  const session = await loginSession(api, owner);
  const res = await api.request('POST', '/api/integrations/facebook', { token: owner.token, body: { session, pageId: page.id } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

/** A new page on the fake (with an Instagram account) connected by `owner`, and a new customer id (PSID) to write from. */
export async function connectNewPage(api: TestApi, owner: TestOperator, fake: MetaMessagingFake): Promise<{ page: FakePage; fb: ConnectedPage; psid: string }> {
  const page = fake.addPage({ name: unique('Loja') }, { username: unique('loja').replace(/-/g, '') });
  const fb = await connectPage(api, owner, page);
  return { page, fb, psid: `${Date.now()}${Math.floor(Math.random() * 1000)}` };
}

export async function connectInstagram(api: TestApi, owner: TestOperator, page: FakePage): Promise<{ id: number; instagramAccountId: string; avatar: string | null }> {
  const res = await api.request('POST', '/api/integrations/instagram', { token: owner.token, body: { instagramAccountId: page.instagram!.id } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}
