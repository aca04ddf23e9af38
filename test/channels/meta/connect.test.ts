import { expect } from 'chai';
import { startTestApi, type TestApi } from '../../helpers/api';
import { makeOperator, unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { MetaMessagingFake } from '../../fakes/metaMessaging';
import { makeOwner } from '../helpers';
import { connectInstagram, connectPage, expectOurCopy, loginSession, loginWithFacebook, metaApiHooks } from './support';

describe('Facebook pages and Instagram accounts: connecting through Meta login', function () {
  this.timeout(60_000);
  const fake = new MetaMessagingFake();
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;

  metaApiHooks(fake, (a) => {
    api = a;
  });
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
  });

  it('the login dialog carries our app id, redirect URI, scopes and a signed state; coming back gives the screen a session, not a token', async () => {
    const start = await api.request('GET', '/api/integrations/facebook/oauth?returnTo=/settings/channels/add/facebook', { token: owner.token });
    const dialog = new URL(start.body.data.url);
    expect(dialog.origin + dialog.pathname).to.equal(`${fake.url}/dialog/oauth`);
    expect(dialog.searchParams.get('client_id')).to.equal(fake.appId);
    expect(dialog.searchParams.get('redirect_uri')).to.equal(`${api.config.publicUrl}/api/hooks/meta/oauth`);
    expect(dialog.searchParams.get('scope')).to.include('pages_messaging').and.include('instagram_manage_messages');
    expect(dialog.searchParams.get('state')).to.be.a('string').with.length.greaterThan(40);
    const back = await loginWithFacebook(api, owner);
    expect(back.pathname).to.equal('/settings/channels/add/facebook');
    const session = back.searchParams.get('metaSession')!;
    expect(session).to.not.include('EAAUser');
  });

  it('a refused login comes back with Meta’s message for the warning', async () => {
    fake.denyNextLogin = true;
    const back = await loginWithFacebook(api, owner, '/power-ups/facebook');
    expect(back.pathname).to.equal('/power-ups/facebook');
    expect(back.searchParams.get('metaSession')).to.equal(null);
    expect(back.searchParams.get('metaError')).to.equal('Permissions error');
  });

  it('a callback with a forged state starts nothing and says the login expired', async () => {
    const res = await fetch(`${api.url}/api/hooks/meta/oauth?code=abc&state=forjado`, { redirect: 'manual' });
    expect(res.status).to.equal(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('metaError')).to.include('expirou');
  });

  it('returnTo outside the Facebook screens is refused', async () => {
    const res = await api.request('GET', `/api/integrations/facebook/oauth?returnTo=${encodeURIComponent('https://evil.example/')}`, { token: owner.token });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].key).to.equal('returnTo');
  });

  it('the page chooser lists the user’s pages with avatars (our copies) and no tokens', async () => {
    const page = fake.addPage({ name: unique('Loja') }, { username: 'loja.ig' });
    const session = await loginSession(api, owner);
    const res = await api.request('GET', `/api/integrations/facebook/pages?session=${encodeURIComponent(session)}`, { token: owner.token });
    expect(res.status).to.equal(200);
    const listed = res.body.data.find((p: { id: string }) => p.id === page.id);
    expect(listed).to.deep.include({ name: page.name, connected: false });
    await expectOurCopy(api, listed.picture, page.picture, ws.id);
    expect(JSON.stringify(res.body)).to.not.include(fake.url);
    expect(listed.instagram).to.deep.equal({ id: page.instagram!.id, username: 'loja.ig' });
    expect(JSON.stringify(res.body)).to.not.include(page.token);
  });

  it('a login session made by one operator is refused to another', async () => {
    const session = await loginSession(api, owner);
    const other = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const res = await api.request('GET', `/api/integrations/facebook/pages?session=${encodeURIComponent(session)}`, { token: other.token });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.include({ key: 'session' });
  });

  it('choosing a page saves it with its avatar, subscribes the app to its messaging fields and keeps the token sealed', async () => {
    const page = fake.addPage({ name: unique('Padaria') });
    const channel = await connectPage(api, owner, page);
    expect(channel).to.include({ channelId: 'facebook', platformId: 3, name: page.name, status: 'connected', pageId: page.id });
    await expectOurCopy(api, channel.avatar, page.picture, ws.id);
    expect(fake.subscriptions.get(page.id)).to.include.members(['messages', 'message_echoes', 'message_deliveries', 'message_reads']);
    const row = await api.deps.knex('channels').where({ id: channel.id }).first();
    expect(JSON.stringify(row.config)).to.not.include(page.token);
    for (const path of ['/api/integrations/channel', '/api/integrations/facebook', `/api/integrations/facebook/${channel.id}`]) {
      const res = await api.request('GET', path, { token: owner.token });
      expect(res.status).to.equal(200);
      expect(JSON.stringify(res.body)).to.not.include(page.token);
    }
    const list = await api.request('GET', '/api/integrations/facebook', { token: owner.token });
    expect(list.body.data.map((c: { id: number }) => c.id)).to.deep.equal([channel.id]);
  });

  it('a page is not one of the user’s pages → field error; a page of another workspace → 409', async () => {
    const session = await loginSession(api, owner);
    const missing = await api.request('POST', '/api/integrations/facebook', { token: owner.token, body: { session, pageId: '999' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.errors[0].key).to.equal('pageId');
    const page = fake.addPage({ name: unique('Disputada') });
    await connectPage(api, owner, page);
    const { owner: other } = await makeOwner(api);
    const again = await api.request('POST', '/api/integrations/facebook', { token: other.token, body: { session: await loginSession(api, other), pageId: page.id } });
    expect(again.status).to.equal(409);
  });

  it('an agent (level 3) cannot start the login nor connect', async () => {
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    expect((await api.request('GET', '/api/integrations/facebook/oauth', { token: agent.token })).status).to.equal(403);
    expect((await api.request('POST', '/api/integrations/facebook', { token: agent.token, body: { session: 'x', pageId: '1' } })).status).to.equal(403);
  });

  it('removing a page unsubscribes it; while its Instagram channel remains, the page stays subscribed', async () => {
    const page = fake.addPage({ name: unique('Ateliê') }, { username: unique('atelie').replace(/-/g, '') });
    const fb = await connectPage(api, owner, page);
    const ig = await connectInstagram(api, owner, page);
    const first = await api.request('DELETE', `/api/integrations/facebook/${fb.id}`, { token: owner.token });
    expect(first.status).to.equal(200);
    expect(first.body.data.unsubscribed).to.equal(false);
    expect(fake.unsubscribed).to.not.include(page.id);
    const second = await api.request('DELETE', `/api/integrations/instagram/${ig.id}`, { token: owner.token });
    expect(second.body.data.unsubscribed).to.equal(true);
    expect(fake.unsubscribed).to.include(page.id);
    expect(await api.deps.knex('channels').whereIn('id', [fb.id, ig.id])).to.have.length(0);
  });

  it('a page of another workspace is a 404 to read or remove', async () => {
    const page = fake.addPage({ name: unique('Alheia') });
    const fb = await connectPage(api, owner, page);
    const { owner: other } = await makeOwner(api);
    expect((await api.request('GET', `/api/integrations/facebook/${fb.id}`, { token: other.token })).status).to.equal(404);
    expect((await api.request('DELETE', `/api/integrations/facebook/${fb.id}`, { token: other.token })).status).to.equal(404);
    expect(fake.unsubscribed).to.not.include(page.id);
  });

  it('lists the Instagram professional accounts of the connected pages and connects one', async () => {
    const page = fake.addPage({ name: unique('Moda') }, { username: 'moda.oficial' });
    fake.addPage({ name: unique('Sem Instagram') });
    await connectPage(api, owner, page);
    const accounts = await api.request('GET', '/api/integrations/instagram/accounts', { token: owner.token });
    expect(accounts.body.data).to.have.length(1);
    const [account] = accounts.body.data;
    expect(account).to.deep.include({ id: page.instagram!.id, username: 'moda.oficial', name: page.name, pageId: page.id, pageName: page.name, connected: false });
    await expectOurCopy(api, account.picture, page.instagram!.picture, ws.id);
    const ig = await connectInstagram(api, owner, page);
    expect(ig).to.include({ channelId: 'instagram', platformId: 7, name: '@moda.oficial', username: 'moda.oficial', status: 'connected', avatar: account.picture });
    const row = await api.deps.knex('channels').where({ id: ig.id }).first();
    expect(JSON.stringify(row.config)).to.not.include(page.token);
    const unknown = await api.request('POST', '/api/integrations/instagram', { token: owner.token, body: { instagramAccountId: '17841400000000001' } });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0].key).to.equal('instagramAccountId');
  });

  it('without META_* set, the settings say which variables the administrator must set and the login explains it', async () => {
    const bare = await startTestApi({ temporalTaskQueue: unique('meta-bare'), metaAppId: undefined, metaAppSecret: undefined, metaVerifyToken: undefined });
    try {
      const { owner: o } = await makeOwner(bare);
      const settings = await bare.request('GET', '/api/integrations/meta/settings', { token: o.token });
      expect(settings.body.data).to.include({ configured: false });
      expect(settings.body.data.missing).to.deep.equal(['META_APP_ID', 'META_APP_SECRET', 'META_VERIFY_TOKEN']);
      const start = await bare.request('GET', '/api/integrations/facebook/oauth', { token: o.token });
      expect(start.status).to.equal(400);
      expect(start.body.errors[0].descriptions[0]).to.include('META_APP_ID');
      // It says what to do and where Meta must call, never a path of our repository.
      expect(settings.body.data.message).to.include(`${bare.config.publicUrl}/api/hooks/meta`).and.include('developers.facebook.com').and.not.include('docs/');
      expect((await fetch(`${bare.url}/api/hooks/meta?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).to.equal(404);
    } finally {
      await bare.close();
    }
  });
});
