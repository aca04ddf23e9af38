import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../helpers/browser';
import { makeOperator } from '../helpers/factories';
import { logIn, signUp, toast, type Account } from './support';
import { channelFreeRule, WIDGET_LIMITS } from '../../api/channels/widget/limits';
import { AVAILABLE_SLUGS, CHANNEL_SLUGS } from '../../ui/src/settings/channels/channelTypes';

/** ui/dist/widget.js, built when missing or older than its sources (the app's build empties ui/dist). */
function ensureWidgetBuilt(): void {
  const bundle = path.resolve('ui/dist/widget.js');
  const sources = path.resolve('ui/widget');
  const newest = Math.max(...readdirSync(sources).map((f) => statSync(path.join(sources, f)).mtimeMs));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= newest) return;
  execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'ui/widget/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
}

describe('e2e: website chat widget channel', function () {
  this.timeout(90_000);
  let api: TestApi;
  let agent: BrowserSession;
  let visitor: BrowserSession | undefined;
  let page: Page;

  before(async () => {
    await ensureUiBuilt();
    ensureWidgetBuilt();
  });
  beforeEach(async () => {
    api = await startTestApi();
    agent = await openPage(api.url);
    page = agent.page;
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      for (const [who, session] of [['agent', agent], ['visitor', visitor]] as const) {
        if (!session) continue;
        const file = await screenshotOnFailure(session.page, `${who} ${this.currentTest.fullTitle()}`);
        console.log(`    ${who} screenshot: ${file}\n    ${who} browser errors: ${JSON.stringify(session.consoleErrors)}`);
      }
    }
    await visitor?.close();
    visitor = undefined;
    await agent.close();
    await api.close();
  });
  after(closeBrowser);

  const agentToken = () => page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token");

  async function createWidget(account: Account): Promise<{ id: number; identifier: string; snippet: string }> {
    await logIn(page, account);
    await page.getByRole('link', { name: 'Configurações' }).click();
    await page.getByRole('link', { name: 'Canais' }).click();
    await page.waitForURL('**/settings/channels');
    await page.getByRole('link', { name: 'Adicionar canal' }).click();
    await page.waitForURL('**/settings/channels/add');
    // The types not built yet say so; once every type exists there is none (then wait for the cards).
    const inDevelopment = CHANNEL_SLUGS.length - AVAILABLE_SLUGS.length;
    await (inDevelopment ? page.getByText('Funcionalidade em desenvolvimento!').first() : page.getByRole('link', { name: /Chat do site/ })).waitFor();
    expect(await page.getByText('Funcionalidade em desenvolvimento!').count()).to.equal(inDevelopment);
    await page.getByRole('link', { name: /Chat do site/ }).click();
    await page.waitForURL('**/settings/channels/add/chat-widget');

    await page.getByRole('button', { name: 'Salvar' }).click();
    expect(await page.getByLabel(/^Descrição/).getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel(/^Descrição/).fill('Chat do site da loja');
    await page.getByLabel(/^Cor principal/).fill('#1570EF');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Chat do site salvo');
    await page.waitForURL(/\/settings\/channels\/chat-widget\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    const identifier = await page.getByLabel('Identificador').inputValue();
    expect(identifier).to.match(/^[0-9a-f]{32}$/);
    expect(await page.getByLabel('Identificador').getAttribute('readonly')).to.not.equal(null);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    await page.getByRole('button', { name: 'Copiar código' }).click();
    await toast(page, 'Copiado para clipboard');
    const snippet = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(snippet).to.equal(`<script src="${api.url}/widget.js" data-identifier="${identifier}" async></script>`);
    expect(await page.getByTestId('widget-snippet').textContent()).to.equal(snippet);
    return { id, identifier, snippet };
  }

  it('a chat widget made in settings talks both ways: the visitor’s "Olá" reaches the inbox and the agent’s reply appears live', async () => {
    const account = await signUp(api);
    const { identifier } = await createWidget(account);

    // At PUBLIC_URL's host, so signed file links are same-origin for the page's CSP, as in production.
    visitor = await openPage(api.config.publicUrl);
    const v = visitor.page;
    await v.goto(`/widget?workspacePlatformIdentifier=${identifier}`);
    const chat = v.getByRole('dialog', { name: account.workspace });
    await chat.getByRole('heading', { name: account.workspace }).waitFor();
    await chat.getByText('Fale conosco').waitFor();
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Olá');
    await input.press('Enter');
    await chat.locator('li.msg.mine', { hasText: 'Olá' }).waitFor();
    await chat.locator('li.msg.mine .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor();

    // The agent sees it in the inbox API.
    const token = await agentToken();
    let found: { id: number; lastMessage: { text: string } } | undefined;
    for (let i = 0; i < 50 && !found; i++) {
      const list = await api.request('GET', '/api/inbox?segmentId=all', { token });
      found = list.body.data?.find((c: { platformId: number; lastMessage: { text: string } | null }) => c.platformId === 4 && c.lastMessage?.text === 'Olá');
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found, 'the widget conversation in GET /api/inbox').to.not.equal(undefined);

    // A private note never reaches the visitor; the reply does, live, with the agent's name.
    const note = await api.request('POST', '/api/inbox/messages', { token, body: { id: found!.id, content: [{ insert: 'nota só da equipe\n' }], type: 2 } });
    expect(note.status).to.equal(201);
    const reply = await api.request('POST', '/api/inbox/messages', {
      token,
      body: { id: found!.id, content: [{ insert: 'Olá! Veja https://exemplo.com.br/ajuda, não javascript:alert(1) <img src=x onerror=alert(1)>\n' }], type: 0 },
    });
    expect(reply.status).to.equal(201);
    const answer = chat.locator('li.msg:not(.mine)', { hasText: 'Olá! Veja' });
    await answer.waitFor({ timeout: 10_000 });
    expect(await answer.locator('.author').textContent()).to.equal(account.name);
    const links = answer.locator('a');
    expect(await links.count()).to.equal(1);
    expect(await links.first().getAttribute('href')).to.equal('https://exemplo.com.br/ajuda');
    expect(await answer.locator('img').count(), 'message text never becomes markup').to.equal(0);
    expect(await answer.textContent()).to.contain('<img src=x onerror=alert(1)>');
    expect(await chat.getByText('nota só da equipe').count()).to.equal(0);

    // The visitor's session survives a reload: same conversation, history from the API.
    await v.reload();
    await chat.locator('li.msg:not(.mine)', { hasText: 'Olá! Veja' }).waitFor();
    await chat.locator('li.msg.mine', { hasText: 'Olá' }).waitFor();
    await input.fill('Obrigada!');
    await input.press('Enter');
    let texts: string[] = [];
    for (let i = 0; i < 50 && !texts.includes('Obrigada!'); i++) {
      const msgs = await api.request('GET', `/api/inbox/messages?id=${found!.id}`, { token });
      texts = msgs.body.data.map((m: { text: string }) => m.text);
      if (!texts.includes('Obrigada!')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(texts).to.include('Obrigada!');

    // A file from the visitor: shown as an image with its download link, a media message for the team.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await chat.locator('input[type="file"]').setInputFiles({ name: 'comprovante.png', mimeType: 'image/png', buffer: png });
    const fileMessage = chat.locator('li.msg.mine', { hasText: 'comprovante.png' });
    await fileMessage.waitFor();
    expect(await fileMessage.locator('img').getAttribute('src')).to.match(/\/api\/assets\/download\/.+\?exp=\d+&sig=/);
    const media = await api.request('GET', `/api/inbox/messages?id=${found!.id}`, { token });
    expect(media.body.data[0]).to.deep.include({ isMedia: true, sender: 'customer' });
    const conversations = await api.deps.knex('customer_platforms').where({ channelId: (await api.deps.knex('channels').where({ identifier }).first('id')).id });
    expect(conversations, 'one visitor, one conversation').to.have.length(1);
    expect(visitor.consoleErrors).to.deep.equal([]);
  });

  it('reconnects with backoff after the socket drops and shows the reply sent while it was offline', async () => {
    const account = await signUp(api);
    const login = await api.request('POST', '/api/operators/login', { body: { email: account.email, password: account.password } });
    const token = login.body.data.workspace.token as string;
    const made = await api.request('POST', '/api/integrations/widget', { token, body: { description: 'Site', avatar: '#7A5AF8' } });
    const identifier = made.body.data.identifier as string;

    visitor = await openPage(api.url);
    // Every MQTT socket of the widget goes through here, so the test can cut the network and hold it down.
    let down = false;
    let attempts = 0;
    const sockets: Array<{ close(): Promise<void> }> = [];
    await visitor.context.routeWebSocket(/\/mqtt$/, (ws) => {
      attempts += 1;
      if (down) return void ws.close();
      const server = ws.connectToServer();
      sockets.push(ws, server);
    });
    const v = visitor.page;
    await v.goto(`/widget?workspacePlatformIdentifier=${identifier}`);
    const chat = v.getByRole('dialog', { name: account.workspace });
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Vocês entregam no sábado?');
    await input.press('Enter');
    await chat.locator('li.msg.mine .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor();
    const conversation = await api.deps.knex('customer_platforms as cp').join('channels as c', 'c.id', 'cp.channel_id').where('c.identifier', identifier).first('cp.id');
    const reply = (text: string) => api.request('POST', '/api/inbox/messages', { token, body: { id: conversation.id, content: [{ insert: `${text}\n` }], type: 0 } });

    await reply('Entregamos sim!');
    await chat.locator('li.msg:not(.mine)', { hasText: 'Entregamos sim!' }).waitFor();

    down = true;
    const before = attempts;
    await Promise.all(sockets.splice(0).map((s) => s.close().catch(() => undefined)));
    await chat.getByText('Sem conexão. Tentando reconectar…').waitFor();
    await reply('Das 8h às 12h.');
    // Retries keep coming while the network is down, spaced out (backoff), not in a tight loop.
    await new Promise((r) => setTimeout(r, 2500));
    expect(attempts - before).to.be.within(1, 4);
    expect(await chat.getByText('Das 8h às 12h.').count()).to.equal(0);

    down = false;
    await chat.locator('li.msg:not(.mine)', { hasText: 'Das 8h às 12h.' }).waitFor({ timeout: 15_000 });
    expect(await chat.getByText('Sem conexão. Tentando reconectar…').isVisible()).to.equal(false);
    expect(await chat.locator('li.msg', { hasText: 'Entregamos sim!' }).count(), 'the refetch adds only what was missing').to.equal(1);
  });

  it('a channel under a burst of first contacts: the widget solves the proof-of-work challenge and the visitor’s first message gets through', async () => {
    const account = await signUp(api);
    const login = await api.request('POST', '/api/operators/login', { body: { email: account.email, password: account.password } });
    const token = login.body.data.workspace.token as string;
    const made = await api.request('POST', '/api/integrations/widget', { token, body: { description: 'Site', avatar: '#F79009' } });
    const { id, identifier } = made.body.data as { id: number; identifier: string };
    // As if 60 strangers had just written: the channel's free budget of first contacts is used up.
    for (let i = 0; i < WIDGET_LIMITS.firstContact.channelFree.limit; i++) await api.deps.rateLimiter.take([channelFreeRule(id)]);

    visitor = await openPage(api.url);
    const v = visitor.page;
    const answers: number[] = [];
    v.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/widget/messages') answers.push(r.status());
    });
    await v.goto(`/widget?workspacePlatformIdentifier=${identifier}`);
    const chat = v.getByRole('dialog', { name: account.workspace });
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Olá, tem alguém aí?');
    await input.press('Enter');
    await chat.locator('li.msg.mine .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor({ timeout: 30_000 });
    expect(answers, 'asked for the challenge, then let in with its solution').to.deep.equal([429, 201]);
    const conversation = await api.deps.knex('customer_platforms').where({ channelId: id }).first('id');
    const texts = (await api.deps.knex('messages').where({ customerPlatformId: conversation.id }).pluck('text')) as string[];
    expect(texts).to.deep.equal(['Olá, tem alguém aí?']);
    // The browser logs the 429 itself; nothing else went wrong.
    expect(visitor.consoleErrors.filter((e) => !/status of 429/.test(e))).to.deep.equal([]);
  });

  it('lists the channel with its name cut at 45 characters, and deletes it after confirmation', async () => {
    const account = await signUp(api);
    await createWidget(account);
    const long = 'Atendimento do site institucional da nossa loja de roupas';
    await page.getByLabel(/^Descrição/).fill(long);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Chat do site salvo');

    await page.goto('/settings/channels');
    const row = page.getByRole('row', { name: /Chat do site/ });
    await row.waitFor();
    expect(await row.getByRole('cell').first().textContent()).to.equal(`${long.slice(0, 44)}…`);
    await row.click();
    await page.waitForURL(/\/settings\/channels\/chat-widget\/\d+$/);

    await page.getByRole('button', { name: 'Excluir' }).click();
    const dialog = page.getByRole('dialog', { name: 'Excluir canal' });
    await dialog.getByText('Esta ação é permanente e não pode ser desfeita.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Excluído com sucesso.');
    await page.waitForURL('**/settings/channels');
    // No channel left: the first run offers the site chat again (test/e2e/firstRun.test.ts).
    await page.getByRole('heading', { name: 'Comece pelo chat do seu site' }).waitFor();
  });

  it('keeps channel settings to level 6 and up', async () => {
    const account = await signUp(api);
    const ws = await api.deps.knex('workspaces').where({ name: account.workspace }).first('id', 'name');
    const agentAccount = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    await logIn(page, agentAccount);
    await page.goto('/settings/account/profile');
    await page.getByLabel(/^Nome/).waitFor();
    expect(await page.getByRole('link', { name: 'Canais' }).count()).to.equal(0);
    await page.goto('/settings/channels');
    await page.getByText('Você não tem permissão para acessar esta página.').waitFor();
  });
});
