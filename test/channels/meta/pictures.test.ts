import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import { unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { MetaMessagingFake, solidPng, type FakePage } from '../../fakes/metaMessaging';
import { makeOwner } from '../helpers';
import { allowLoopbackMetaPicturesForTests, clearPictureCopies } from '../../../api/channels/meta/pictures';
import { connectPage, expectOurCopy, loginSession, metaApiHooks } from './support';

/**
 * Pictures Meta hands us (pages, Instagram accounts, customers) are copied into our storage and served
 * from our origin (docs/channels/meta.md "Pictures"): the app's CSP blocks Meta's CDN.
 */
describe('Meta pictures: copied into the workspace’s avatars, served from our origin', function () {
  this.timeout(60_000);
  // A fake of its own: the chooser copies the pictures of the first pages Meta lists.
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

  async function listPages(who: TestOperator): Promise<{ id: string; picture: string | null }[]> {
    const session = await loginSession(api, who);
    const res = await api.request('GET', `/api/integrations/facebook/pages?session=${encodeURIComponent(session)}`, { token: who.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  }
  const pictureOf = (list: { id: string; picture: string | null }[], page: FakePage) => list.find((p) => p.id === page.id)!.picture;
  const avatarFiles = (workspaceId: number) => api.deps.knex('stored_files').where({ workspaceId }).whereRaw("key LIKE 'av\\_%'").pluck('key');

  it('each workspace gets its own copy of a listed page’s picture; listing again reuses it', async () => {
    const page = fake.addPage({ name: unique('Vitrine') });
    const ours = pictureOf(await listPages(owner), page);
    const key = await expectOurCopy(api, ours, page.picture, ws.id);
    expect(pictureOf(await listPages(owner), page)).to.equal(ours);
    clearPictureCopies();
    expect(pictureOf(await listPages(owner), page), 'the same bytes are found again in the workspace').to.equal(ours);
    expect(await avatarFiles(ws.id)).to.include(key);

    const { ws: otherWs, owner: other } = await makeOwner(api);
    const theirs = pictureOf(await listPages(other), page);
    const otherKey = await expectOurCopy(api, theirs, page.picture, otherWs.id);
    expect(otherKey).to.not.equal(key);
    expect(await avatarFiles(otherWs.id)).to.include(otherKey).and.not.include(key);
  });

  it('a picture that is missing, not an image, or over 1 MB is left out: the page is listed without it and connects without an avatar', async () => {
    const tooBig = Buffer.concat([solidPng(), Buffer.alloc(1024 * 1024)]);
    const pages = [
      fake.addPage({ name: unique('Sem foto'), picture: `${fake.url}/cdn/nao-existe.png` }),
      fake.addPage({ name: unique('Html'), picture: fake.addAttachment(Buffer.from('<html><body>oi</body></html>'), 'text/html') }),
      fake.addPage({ name: unique('Disfarce'), picture: fake.addAttachment(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png') }),
      fake.addPage({ name: unique('Gigante'), picture: fake.addAttachment(tooBig, 'image/png') }),
    ];
    const good = fake.addPage({ name: unique('Boa') });
    const list = await listPages(owner);
    for (const page of pages) expect(pictureOf(list, page), page.name).to.equal(null);
    await expectOurCopy(api, pictureOf(list, good), good.picture, ws.id);
    // Nothing of the refused pictures was kept: the workspace holds just the copies the list shows.
    const shown = list.map((p) => p.picture).filter((p): p is string => p !== null).map((p) => p.slice(p.lastIndexOf('/') + 1));
    expect((await avatarFiles(ws.id)).sort()).to.deep.equal([...new Set(shown)].sort());

    const channel = await connectPage(api, owner, pages[3]);
    expect(channel.avatar).to.equal(null);
    expect((await api.deps.knex('channels').where({ id: channel.id }).first()).avatar).to.equal(null);
  });

  it('the download goes through the SSRF guard: a picture on a loopback address is not fetched outside tests', async () => {
    const page = fake.addPage({ name: unique('Interna') });
    allowLoopbackMetaPicturesForTests(false);
    try {
      expect(pictureOf(await listPages(owner), page)).to.equal(null);
    } finally {
      allowLoopbackMetaPicturesForTests(true);
    }
    await expectOurCopy(api, pictureOf(await listPages(owner), page), page.picture, ws.id);
  });

  it('connecting a page and its Instagram account saves our copies as the channels’ avatars', async () => {
    const page = fake.addPage({ name: unique('Café') }, { username: unique('cafe').replace(/-/g, '') });
    const fb = await connectPage(api, owner, page);
    await expectOurCopy(api, fb.avatar, page.picture, ws.id);
    const res = await api.request('POST', '/api/integrations/instagram', { token: owner.token, body: { instagramAccountId: page.instagram!.id } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    await expectOurCopy(api, res.body.data.avatar, page.instagram!.picture, ws.id);
    const shown = await api.request('GET', `/api/integrations/facebook/${fb.id}`, { token: owner.token });
    expect(shown.body.data.avatar).to.equal(fb.avatar);
  });
});
