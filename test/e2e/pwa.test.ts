import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import type { AppPage } from '../helpers/browser';
import { useAppPage } from '../helpers/browser';
import { cutOff, logIn, signUp } from './support';
import { inboundMessage, makeChannel } from '../inbox/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { allowLoopbackPushForTests } from '../../api/push/testing';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { PushServiceFake } from '../fakes/pushService';

/** Every URL held in the page origin's Cache Storage, by cache name. */
function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate<Record<string, string[]>>(`(async () => {
    const out = {};
    for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
    return out;
  })()`);
}

async function controlled(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('navigator.serviceWorker.controller !== null');
}

describe('e2e: installable PWA (manifest, service worker, notifications settings)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;
  let session: AppPage;

  useAppPage((s) => ({ api, page } = session = s));

  it('links a valid web manifest (pt-BR, /inbox, standalone, theme colour) whose icons load as PNGs of their size', async () => {
    await page.goto('/user/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).to.equal('/manifest.webmanifest');
    const res = await page.request.get(href!);
    expect(res.status()).to.equal(200);
    expect(res.headers()['content-type']).to.match(/^application\/manifest\+json/);
    const manifest = await res.json();
    expect(manifest).to.include({ name: 'Balcão', lang: 'pt-BR', start_url: '/inbox', display: 'standalone', theme_color: '#0f2b3a' });
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).to.equal(manifest.theme_color);
    const purposes = new Set<string>();
    for (const icon of manifest.icons as { src: string; sizes: string; type: string; purpose: string }[]) {
      const size = Number(icon.sizes.split('x')[0]);
      const dims = await page.evaluate<number[]>(`(async () => {
        const img = new Image();
        img.src = ${JSON.stringify(icon.src)};
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      })()`);
      expect(dims, icon.src).to.deep.equal([size, size]);
      expect((await page.request.get(icon.src)).headers()['content-type']).to.equal('image/png');
      purposes.add(icon.purpose);
    }
    expect([...purposes].sort()).to.deep.equal(['any', 'maskable']);
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).to.include.members(['192x192', '512x512']);
  });

  it('registers the service worker, which controls the page after a reload and caches the shell but never /api answers', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    const sw = await page.request.get('/sw.js');
    expect(sw.headers()['content-type']).to.match(/^text\/javascript/);
    expect(sw.headers()['cache-control']).to.equal('no-cache');
    await page.reload();
    await page.getByRole('navigation', { name: 'Navegação principal' }).waitFor();
    expect(await controlled(page), 'the reloaded page is controlled').to.equal(true);
    // The app made API calls through the worker (inbox, counters, session); none of them was stored.
    await page.waitForLoadState('networkidle');
    const caches = await cachedUrls(page);
    const names = Object.keys(caches);
    expect(names).to.have.length(1);
    expect(names[0]).to.match(/^balcao-shell-[0-9a-f]{16}$/);
    const urls = caches[names[0]];
    expect(urls).to.include.members(['/index.html', '/manifest.webmanifest', '/icons/icon-192.png']);
    expect(urls.some((u) => /^\/assets\/.+\.js$/.test(u))).to.equal(true);
    expect(urls.filter((u) => u.startsWith('/api') || u.startsWith('/mqtt'))).to.deep.equal([]);
  });

  it('starts from the cached shell when the network is gone', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload();
    await page.waitForFunction('navigator.serviceWorker.controller !== null');
    await page.waitForLoadState('networkidle');
    await session.browser.context.setOffline(true);
    try {
      await page.reload();
      // index.html and the JS came from the cache: the app's own markup is there (its data is not).
      await page.waitForFunction("document.getElementById('root').childElementCount > 0", undefined, { timeout: 15_000 });
    } finally {
      await session.browser.context.setOffline(false);
    }
  });

  it('shows a pushed message as a notification with the conversation url (push delivered to the worker over CDP)', async () => {
    await session.browser.context.grantPermissions(['notifications']);
    await page.goto('/user/login');
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    const cdp = await session.browser.context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    for (const until = Date.now() + 5000; !registrations.some((r) => !r.isDeleted); ) {
      if (Date.now() > until) throw new Error('no service worker registration reported');
      await new Promise((r) => setTimeout(r, 50));
    }
    const reg = registrations.find((r) => !r.isDeleted)!;
    const origin = new URL(api.url).origin;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: reg.registrationId, data: JSON.stringify({ title: 'Maria Clara', body: 'Quero a torta', url: '/inbox/all/42', tag: 'conversation-42' }) });
    let shown: unknown[] = [];
    for (const until = Date.now() + 10_000; !shown.length && Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      shown = await page.evaluate<unknown[]>(
        `navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((n) => n.map((x) => ({ title: x.title, body: x.body, tag: x.tag, url: x.data && x.data.url })))`,
      );
    }
    expect(shown).to.deep.equal([{ title: 'Maria Clara', body: 'Quero a torta', tag: 'conversation-42', url: '/inbox/all/42' }]);
  });

  it('routes the page to the conversation when the worker says a notification was clicked, without reloading', async () => {
    const account = await signUp(api);
    const ws = await api.deps.knex('workspaces').where({ name: account.workspace }).first('id');
    const channel = await makeChannel(api.deps.knex, { id: ws.id, name: account.workspace }, 'widget');
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'clique', name: 'Cliente da Notificação' }, content: [{ insert: 'Oi\n' }] }));
    await logIn(page, account);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.evaluate('window.__sameDocument = true');
    // What ui/pwa/sw.js posts to an open tab on notificationclick.
    await page.evaluate(`navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'balcao:navigate', url: '/inbox/all/${conv.conversationId}' } }))`);
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);
    await page.getByTestId('conversation-name').filter({ hasText: 'Cliente da Notificação' }).waitFor();
    expect(await page.evaluate<boolean>('window.__sameDocument === true'), 'no reload').to.equal(true);
  });

  it('shows the device notification switch, explains a blocked permission, and keeps the sound switch off after a reload', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const account = await signUp(api);
    await logIn(page, account);
    await page.goto('/settings/account/profile');
    await page.getByRole('heading', { name: 'Notificações', exact: true }).waitFor();
    const device = page.getByRole('switch', { name: 'Notificações neste aparelho' });
    await device.waitFor();
    await page.getByText('Nenhum aparelho recebe notificações.').waitFor();
    // Headless Chromium without a granted permission answers "denied": the switch says what to do.
    if (await device.isEnabled()) await device.click();
    await page.getByText(/As notificações estão bloqueadas para o Balcão neste navegador/).waitFor();
    expect(await device.isChecked()).to.equal(false);

    const sound = page.getByRole('switch', { name: 'Som de nova mensagem' });
    expect(await sound.isChecked()).to.equal(true);
    await sound.click();
    expect(await sound.isChecked()).to.equal(false);
    expect(await cutOff(page)).to.deep.equal([]);
    await page.reload();
    await page.getByRole('switch', { name: 'Som de nova mensagem' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Som de nova mensagem' }).isChecked()).to.equal(false);
    // Off: a customer's new message updates the inbox live but plays no chime.
    const ws = await api.deps.knex('workspaces').where({ name: account.workspace }).first('id');
    const channel = await makeChannel(api.deps.knex, { id: ws.id, name: account.workspace }, 'widget');
    await page.goto('/inbox/all');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
    await page.evaluate("window.__sounds = 0; window.addEventListener('balcao:notification-sound', () => window.__sounds++)");
    await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'silencio', name: 'Cliente Silencioso' }, content: [{ insert: 'Oi\n' }] }));
    await page.getByRole('option', { name: /Cliente Silencioso/ }).waitFor();
    expect(await page.evaluate<number>('window.__sounds')).to.equal(0);
  });

  it("logging out removes this device from the agent's push devices on the server before the session is cleared", async () => {
    const fake = new PushServiceFake();
    await fake.start();
    allowLoopbackPushForTests(true);
    try {
      const ws = await makeWorkspace(api.deps.knex);
      const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      const sub = fake.subscribe();
      expect((await api.request('POST', '/api/push/subscriptions', { token: owner.token, body: sub })).status).to.equal(201);
      // Headless Chromium cannot reach a real push service: the browser's subscription of this device is the
      // one registered above (the Push API's answer stands in; the app's own code runs as it is).
      await page.addInitScript(`(() => {
        const sub = { endpoint: ${JSON.stringify(sub.endpoint)}, unsubscribe: async () => true, toJSON() { return { endpoint: this.endpoint, keys: ${JSON.stringify(sub.keys)} }; } };
        if (window.PushManager) PushManager.prototype.getSubscription = async () => sub;
      })()`);
      await logIn(page, owner);
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await page.goto('/user/logout');
      await page.waitForURL('**/user/login');
      const left = await api.deps.knex('push_subscriptions').where({ endpoint: sub.endpoint }).count({ n: '*' });
      expect(Number(left[0]!.n), 'the device is forgotten').to.equal(0);
      expect(await page.evaluate<number>('Object.keys(localStorage).filter((k) => k.startsWith("balcao.")).length'), 'local data cleared').to.equal(0);
    } finally {
      allowLoopbackPushForTests(false);
      await fake.stop();
    }
  });
});
