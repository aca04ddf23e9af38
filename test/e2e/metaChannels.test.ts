import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { instagramBatch, messageEvent, MetaMessagingFake, pageBatch, postMetaWebhook, type FakePage } from '../fakes/metaMessaging';
import { prepareWorker, until, withChannelWorker, type WorkerSetup } from '../channels/helpers';
import { connectInstagram, metaConfig } from '../channels/meta/support';
import { allowLoopbackMetaPicturesForTests } from '../../api/channels/meta/pictures';
import { toast } from './support';

/**
 * Facebook and Instagram end to end in the browser, against the Graph fake: 'Conectar com o Facebook' goes
 * through Meta's login redirect and back, the page chooser saves the page, a Messenger message shows live
 * and the agent's reply reaches the Send API; then the page's Instagram account is connected and the same
 * happens on Instagram. The page's and the customers' pictures are our copies (the CSP blocks Meta's CDN)
 * and really load in the browser.
 */
describe('e2e: connecting a Facebook page and its Instagram account, messages live both ways', function () {
  this.timeout(150_000);
  const fake = new MetaMessagingFake();
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;
  let worker: WorkerSetup;
  let fbPage: FakePage;
  const taskQueue = unique('meta-e2e');

  before(async () => {
    allowLoopbackMetaPicturesForTests(true);
    await fake.start();
    worker = await prepareWorker();
  });
  after(async () => {
    await worker?.connection.close();
    await fake.stop();
    allowLoopbackMetaPicturesForTests(false);
  });
  useAppPage((s) => ({ api, page } = s), () => ({ ...metaConfig(fake), temporalTaskQueue: taskQueue }));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    fbPage = fake.addPage({ name: unique('Doceria') }, { username: `doceria${Date.now()}` });
  });

  // Meta sends the browser back to PUBLIC_URL (http://localhost:port), so the app is used at that origin
  // (the session lives in its localStorage); Chromium reaches localhost on the loopback the api listens on.
  const at = (path: string) => `${api.config.publicUrl}${path}`;
  async function logInAtPublicUrl(): Promise<void> {
    await page.goto(at('/user/login'));
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Senha').fill(owner.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/inbox/all');
  }

  const post = (payload: unknown) => postMetaWebhook(`${api.url}/api/hooks/meta`, payload, fake.appSecret);

  async function replyInInbox(customerText: string, reply: string): Promise<void> {
    const row = page.getByRole('option').filter({ hasText: customerText });
    await row.waitFor();
    await row.click();
    const log = page.getByRole('log', { name: 'Mensagens da conversa' });
    await log.getByRole('article').filter({ hasText: customerText }).waitFor();
    const composer = page.getByRole('combobox', { name: /Responder|Nota privada/ });
    await composer.pressSequentially(reply);
    await composer.press('Enter');
    await until(async () => fake.sent.some((s) => s.body.message?.text === reply), 20_000);
  }

  /** What the check reads of an <img> in the page (the tests compile without the DOM types). */
  interface LoadingImage {
    complete: boolean;
    naturalWidth: number;
    currentSrc: string;
    src: string;
    addEventListener(type: 'load' | 'error', listener: () => void, options: { once: boolean }): void;
  }

  /**
   * The avatar `img` inside `scope` once the browser is done with it: decoded with a size, from our
   * origin's /api/avatars/. An image the CSP blocks or that fails to load makes MUI drop the img for the
   * letter, so this waits for a loaded image rather than reading a src that may be about to go.
   */
  async function expectLoadedAvatar(scope: Locator): Promise<void> {
    const img = scope.locator('img');
    await img.waitFor();
    const loaded = await img.evaluate(
      (node) =>
        new Promise<{ src: string; width: number }>((resolve) => {
          // No named functions in here: the test bundler would wrap them in a helper the page does not have.
          const el = node as unknown as LoadingImage;
          if (el.complete) resolve({ src: el.currentSrc || el.src, width: el.naturalWidth });
          else {
            el.addEventListener('load', () => resolve({ src: el.currentSrc || el.src, width: el.naturalWidth }), { once: true });
            el.addEventListener('error', () => resolve({ src: el.currentSrc || el.src, width: el.naturalWidth }), { once: true });
          }
        }),
    );
    expect(loaded.src.startsWith(`${api.config.publicUrl}/api/avatars/av_`), loaded.src).to.equal(true);
    expect(loaded.width, `${loaded.src} did not load`).to.be.greaterThan(0);
    // Still there after the load (MUI removes it on an error).
    expect(await img.count()).to.equal(1);
  }

  it('login redirect → page chooser → Messenger message live → reply at the Send API; then Instagram the same way', async () => {
    await withChannelWorker(
      api,
      worker,
      async () => {
        await logInAtPublicUrl();
        await page.goto(at('/settings/channels/add/facebook'));
        await page.getByRole('button', { name: 'Conectar com o Facebook' }).click();
        const chooser = page.getByRole('dialog', { name: 'Escolha a página' });
        await chooser.waitFor();
        expect(page.url()).to.include('metaSession=');
        const option = chooser.getByRole('button', { name: fbPage.name });
        await expectLoadedAvatar(option);
        await option.click();
        await toast(page, 'Canal de Facebook salvo');
        const connected = page.getByRole('list', { name: 'Páginas conectadas' }).getByRole('listitem').filter({ hasText: fbPage.name });
        await connected.waitFor();
        await expectLoadedAvatar(connected);
        expect(fake.subscriptions.get(fbPage.id)).to.include('messages');

        await page.goto(at('/inbox/all'));
        await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
        const psid = `${Date.now()}1`;
        fake.profiles.set(psid, { first_name: 'Bia', last_name: 'Messenger', profile_pic: fake.addPicture() });
        expect((await post(pageBatch([{ pageId: fbPage.id, messaging: [messageEvent(psid, fbPage.id, { text: 'Vocês entregam bolo hoje?' })] }]))).status).to.equal(200);
        await replyInInbox('Vocês entregam bolo hoje?', 'Entregamos sim, até as 18h.');
        await expectLoadedAvatar(page.getByRole('option').filter({ hasText: 'Bia Messenger' }));
        const fbSend = fake.sent.find((s) => s.body.message?.text === 'Entregamos sim, até as 18h.')!;
        expect(fbSend).to.deep.include({ pageId: fbPage.id });
        expect(fbSend.body.recipient).to.deep.equal({ id: psid });

        await page.goto(at('/settings/channels/add/instagram'));
        await page.getByRole('button', { name: `Conectar @${fbPage.instagram!.username}` }).click();
        await toast(page, 'Instagram conectado');

        await page.goto(at('/inbox/all'));
        await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
        const igsid = `${Date.now()}2`;
        fake.profiles.set(igsid, { name: 'Caio IG', username: 'caio.ig', profile_pic: fake.addPicture() });
        const igId = fbPage.instagram!.id;
        expect((await post(instagramBatch([{ accountId: igId, messaging: [messageEvent(igsid, igId, { text: 'Quanto custa o brigadeiro?' })] }]))).status).to.equal(200);
        await replyInInbox('Quanto custa o brigadeiro?', 'R$ 3,50 a unidade.');
        await expectLoadedAvatar(page.getByRole('option').filter({ hasText: 'Caio IG' }));
        const igSend = fake.sent.find((s) => s.body.message?.text === 'R$ 3,50 a unidade.')!;
        expect(igSend.body.recipient).to.deep.equal({ id: igsid });
      },
      { channels: { initialDelayMs: 100, maxDelayMs: 500, maxAttempts: 3 } },
    );
  });

  it('/power-ups/facebook: the login comes back to the power-up, the chosen page toasts "Página conectada" and opens its settings; a revoked Instagram channel says "Seu canal de instagram desconectou"; Remover unsubscribes the page', async () => {
    await logInAtPublicUrl();
    await page.goto(at('/power-ups/facebook'));
    await page.getByRole('button', { name: 'Conectar com o Facebook' }).click();
    const chooser = page.getByRole('dialog', { name: 'Escolha a página' });
    await chooser.waitFor();
    expect(new URL(page.url()).pathname).to.equal('/power-ups/facebook');
    await chooser.getByRole('button', { name: fbPage.name }).click();
    await toast(page, 'Página conectada');
    const connected = page.getByRole('list', { name: 'Páginas conectadas' }).getByRole('link', { name: fbPage.name });
    await connected.click();
    await page.getByText(`ID da página: ${fbPage.id}`).waitFor();
    expect(new URL(page.url()).pathname).to.match(/^\/settings\/channels\/facebook\/\d+$/);

    const ig = await connectInstagram(api, owner, fbPage);
    await api.deps.knex('channels').where({ id: ig.id }).update({ status: 'disconnected' });
    await page.goto(at(`/settings/channels/instagram/${ig.id}`));
    await page.getByText('Seu canal de instagram desconectou', { exact: false }).waitFor();

    // 'Remover' on the power-up: once nothing uses the page, the app is unsubscribed from it.
    expect((await api.request('DELETE', `/api/integrations/instagram/${ig.id}`, { token: owner.token })).status).to.equal(200);
    await page.goto(at('/power-ups/facebook'));
    await page.getByRole('list', { name: 'Páginas conectadas' }).getByRole('listitem').filter({ hasText: fbPage.name }).getByRole('button', { name: 'Remover' }).click();
    await page.getByRole('dialog', { name: 'Remover página' }).getByRole('button', { name: 'Remover' }).click();
    await toast(page, 'Excluído com sucesso.');
    await page.getByText('Nenhuma página conectada ainda.').waitFor();
    expect(fake.unsubscribed).to.include(fbPage.id);
  });

  it('a refused login shows a warning with Meta’s message', async () => {
    await logInAtPublicUrl();
    await page.goto(at('/settings/channels/add/facebook'));
    fake.denyNextLogin = true;
    await page.getByRole('button', { name: 'Conectar com o Facebook' }).click();
    await page.getByText('O login com o Facebook não foi concluído: Permissions error').waitFor();
    expect(await page.getByRole('dialog').count()).to.equal(0);
  });
});
