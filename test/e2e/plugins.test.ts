import { expect } from 'chai';
import { jwtVerify } from 'jose';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, launchBrowser, screenshotOnFailure } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { makeChannel, makeConversation } from '../inbox/factories';
import { allowLoopbackPluginsForTests } from '../../api/plugins/endpoint';
import { logIn, toast } from './support';

/**
 * The plugin page: records what the app posts, answers a conversation with a toast, and embeds a frame
 * from another origin (localhost vs 127.0.0.1) that keeps posting a toast straight to the app.
 */
function pluginPage(intruderUrl: string): string {
  return `<!doctype html><meta charset="utf-8"><title>Plugin de teste</title>
<p>Plugin de teste</p>
<script>
  window.received = [];
  window.addEventListener('message', function (e) {
    if (e.source !== window.parent) return;
    window.received.push(e.data);
    if (e.data && e.data.event === 'conversation') {
      parent.postMessage({ event: 'toast', data: { message: 'Plugin viu ' + e.data.data.name, type: 'success' } }, '*');
    }
  });
</script>
<iframe src="${intruderUrl}" title="intruso"></iframe>`;
}

/** Asks to confirm, then sets a contact property and reports the answer as a toast. */
const PROPERTY_PLUGIN = `<!doctype html><meta charset="utf-8"><script>
  var asked = false;
  window.addEventListener('message', function (e) {
    if (e.source !== window.parent) return;
    var m = e.data || {};
    if (m.event === 'conversation' && !asked) {
      asked = true;
      parent.postMessage({ event: 'dialog_confirm', id: 'q1', data: { title: 'Plano', message: 'Definir o plano como Ouro?' } }, '*');
    }
    if (m.event === 'dialog_confirm' && m.id === 'q1' && m.data.confirmed) {
      parent.postMessage({ event: 'set-property', id: 'p1', data: { label: 'Plano', value: 'Ouro' } }, '*');
    }
    if (m.event === 'set-property' && m.id === 'p1') {
      parent.postMessage({ event: 'toast', data: { message: m.data.ok ? 'Propriedade salva' : 'Falhou' } }, '*');
    }
  });
</script>`;

const INTRUDER = `<!doctype html><meta charset="utf-8"><script>
  setInterval(function () {
    window.top.postMessage({ event: 'loading', data: true }, '*');
    window.top.postMessage({ event: 'toast', data: { message: 'Mensagem intrusa' } }, '*');
  }, 100);
</script>`;

/** A throwaway self-signed certificate: the app's CSP frames https only, as in production. */
function selfSignedCert(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-plugin-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

describe('e2e: inbox plugin tab (sandboxed iframe, postMessage protocol)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let context: BrowserContext;
  let page: Page;
  let server: https.Server;
  let port: number;
  let admin: TestOperator;
  /** What the plugin server saw: each request's path and query, and its Referer. */
  const pluginRequests: string[] = [];

  before(async () => {
    await ensureUiBuilt();
    allowLoopbackPluginsForTests(true);
    server = https.createServer(selfSignedCert(), (req, res) => {
      pluginRequests.push(`${req.url ?? ''} ${req.headers.referer ?? ''}`);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      if (req.url?.startsWith('/intruder')) res.end(INTRUDER);
      else if (req.url?.startsWith('/property')) res.end(PROPERTY_PLUGIN);
      else res.end(pluginPage(`https://localhost:${port}/intruder`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    allowLoopbackPluginsForTests(false);
    await new Promise((resolve) => server.close(resolve));
    await closeBrowser();
  });

  beforeEach(async () => {
    api = await startTestApi();
    const browser = await launchBrowser();
    // The plugin server's certificate is self-signed; nothing else in this context is https.
    context = await browser.newContext({ baseURL: api.url, locale: 'pt-BR', viewport: { width: 1400, height: 850 }, ignoreHTTPSErrors: true });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    const ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9, { name: 'Alice Admin' });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`    screenshot: ${await screenshotOnFailure(page, this.currentTest.fullTitle())}`);
    await context.close();
    await api.close();
  });

  const pluginFrame = async (): Promise<Frame> => {
    for (let i = 0; i < 100; i++) {
      const frame = page.frames().find((f) => f.url().startsWith(`https://127.0.0.1:${port}/`));
      if (frame) return frame;
      await page.waitForTimeout(100);
    }
    throw new Error('plugin frame not found');
  };

  it('the plugin receives the open conversation, its toast shows in the app, and a message from another origin is ignored', async () => {
    const created = await api.request('POST', '/api/plugin', { token: admin.token, body: { name: 'CRM', endpoint: `https://127.0.0.1:${port}/panel` } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const channel = await makeChannel(api.deps.knex, { id: admin.workspaceId, name: 'ws' }, 'widget', { name: 'Site', description: 'Chat do site' });
    const conversation = await makeConversation(api.deps, channel, { name: 'Bruna Cliente' });

    await logIn(page, admin);
    await page.goto(`/inbox/all/${conversation.conversationId}`);
    await page.getByRole('tab', { name: 'Plugins' }).click();

    const iframe = page.locator('iframe[title="CRM"]');
    expect(await iframe.getAttribute('sandbox')).to.equal('allow-scripts allow-forms allow-popups');
    // The secret never travels in the frame's address (history, logs, Referer): the frame gets a signed token.
    expect(await iframe.getAttribute('src')).to.equal(`https://127.0.0.1:${port}/panel`);
    expect(pluginRequests.join('\n')).to.not.include(created.body.data.authSecret);

    await toast(page, 'Plugin viu Bruna Cliente');
    const frame = await pluginFrame();
    const received = await frame.evaluate<{ event: string; data?: { id: number; customerId: number } }[]>('window.received');
    const conv = received.find((m) => m.event === 'conversation');
    expect(conv?.data?.id).to.equal(conversation.conversationId);
    // The auth event's token verifies with the plugin's secret, as docs/plugins.md tells a plugin to do.
    for (let i = 0; i < 50 && !(await frame.evaluate<boolean>("window.received.some(function (m) { return m.event === 'auth' && m.data && m.data.token; })")); i++) await page.waitForTimeout(100);
    const auths = (await frame.evaluate<{ event: string; data?: { token: string } }[]>('window.received')).filter((m) => m.event === 'auth' && m.data?.token);
    const { payload } = await jwtVerify(auths.at(-1)!.data!.token, new TextEncoder().encode(created.body.data.authSecret), {
      algorithms: ['HS256'],
      issuer: 'balcao',
      audience: `https://127.0.0.1:${port}`,
      clockTolerance: 30,
    });
    expect(payload).to.include({ workspace_id: admin.workspaceId, operator_id: admin.id, conversation_id: conversation.conversationId });
    expect(JSON.stringify(received)).to.not.include(created.body.data.authSecret);

    // The intruder frame (another origin, inside the plugin) has been posting every 100 ms all along:
    // none of it ever set the spinner (state, so it would show at once) or became a toast.
    expect(page.frames().some((f) => f.url() === `https://localhost:${port}/intruder`), 'intruder frame loaded').to.equal(true);
    await page.waitForTimeout(800);
    expect(await page.getByLabel('Carregando plugin').count(), 'spinner set by the intruder').to.equal(0);
    expect(await page.locator('.MuiSnackbar-root', { hasText: 'Mensagem intrusa' }).count()).to.equal(0);
  });

  it('a plugin asks for a confirmation dialog and, on Ok, sets a contact property through the app', async () => {
    await api.request('POST', '/api/plugin', { token: admin.token, body: { name: 'Planos', endpoint: `https://127.0.0.1:${port}/property` } });
    const channel = await makeChannel(api.deps.knex, { id: admin.workspaceId, name: 'ws' }, 'widget', { name: 'Site', description: 'Chat do site' });
    const conversation = await makeConversation(api.deps, channel, { name: 'Carla Cliente' });
    await logIn(page, admin);
    await page.goto(`/inbox/all/${conversation.conversationId}`);
    await page.getByRole('tab', { name: 'Plugins' }).click();
    const dialog = page.getByRole('dialog', { name: 'Plano' });
    await dialog.getByText('Definir o plano como Ouro?').waitFor();
    await dialog.getByRole('button', { name: 'Ok' }).click();
    await toast(page, 'Propriedade salva');
    const customerId = (await api.deps.knex('customer_platforms').where({ id: conversation.conversationId }).first('customer_id')).customerId;
    const props = await api.deps.knex('customer_properties').where({ customer_id: customerId }).select('label', 'value');
    expect(props).to.deep.include({ label: 'Plano', value: 'Ouro' });
  });

  it("the demo's built-in page (/plugins/exemplo-pedidos.html) loads from the app's own address, sandboxed, shows the contact and records an order", async () => {
    const created = await api.request('POST', '/api/plugin', { token: admin.token, body: { name: 'Pedidos', endpoint: '/plugins/exemplo-pedidos.html' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const channel = await makeChannel(api.deps.knex, { id: admin.workspaceId, name: 'ws' }, 'widget', { name: 'Site', description: 'Chat do site' });
    const conversation = await makeConversation(api.deps, channel, { name: 'Dora Cliente' });
    await logIn(page, admin);
    await page.goto(`/inbox/all/${conversation.conversationId}`);
    await page.getByRole('tab', { name: 'Plugins' }).click();
    const iframe = page.locator('iframe[title="Pedidos"]');
    expect(await iframe.getAttribute('src')).to.equal(`${api.url}/plugins/exemplo-pedidos.html`);
    expect(await iframe.getAttribute('sandbox')).to.equal('allow-scripts allow-forms allow-popups');
    const frame = page.frameLocator('iframe[title="Pedidos"]');
    await frame.getByText('Cliente: Dora Cliente').waitFor();
    await frame.getByText(/Token do operador recebido/).waitFor();
    await frame.getByRole('button', { name: 'Registrar pedido de hoje' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar pedido' });
    await dialog.getByRole('button', { name: 'Ok' }).click();
    await toast(page, 'Último pedido: ');
    const customerId = (await api.deps.knex('customer_platforms').where({ id: conversation.conversationId }).first('customer_id')).customerId;
    const props = await api.deps.knex('customer_properties').where({ customer_id: customerId }).select('label', 'value');
    expect(props.map((p: { label: string }) => p.label)).to.include('Último pedido');
  });

  it('settings: a plugin is saved ("Plugin salvo") and listed; the API token is copied, then regenerated after confirmation; avatars upload', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    await logIn(page, admin);

    await page.goto('/settings/plugins');
    await page.getByRole('link', { name: 'Adicionar plugin' }).click();
    await page.getByLabel('Nome').fill('CRM externo');
    await page.getByLabel('Endpoint (HTTPS)').fill('http://crm.example.com/painel');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('O endpoint do plugin deve usar HTTPS.').waitFor();
    const longEndpoint = `https://crm.example.com/${'p'.repeat(100)}`;
    await page.getByLabel('Endpoint (HTTPS)').fill(longEndpoint);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Plugin salvo');
    await page.waitForURL(/\/settings\/plugins\/\d+$/);
    // The plugin's server keeps the secret to verify its tokens, so it can be copied.
    await page.getByRole('textbox', { name: 'Auth secret' }).waitFor();
    await page.getByRole('button', { name: 'Copiar Auth secret' }).waitFor();
    await page.getByRole('link', { name: 'Voltar' }).click();
    const cell = page.getByRole('cell', { name: /^https:\/\/crm\.example\.com/ });
    expect(((await cell.textContent()) ?? '').length).to.equal(85);

    await page.goto('/settings/api');
    await page.getByRole('button', { name: 'Gerar credenciais' }).click();
    await page.getByText('Copie o token agora').waitFor();
    const first = await page.getByLabel('Token', { exact: true }).inputValue();
    expect(first).to.match(/^blc_/);
    await page.getByRole('button', { name: 'Copiar Token' }).click();
    await toast(page, 'Copiado para clipboard');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).to.equal(first);
    expect((await api.request('GET', '/api/label', { token: first })).status).to.equal(200);
    await page.getByRole('button', { name: 'Regenerar' }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.waitForFunction((prev) => (globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector('input[value^="blc_"]')?.value !== prev, first);
    expect((await api.request('GET', '/api/label', { token: first })).status).to.equal(401);

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await page.goto('/settings/account/profile');
    await page.getByTestId('avatar-input-operators-avatar').setInputFiles({ name: 'eu.png', mimeType: 'image/png', buffer: png });
    await toast(page, 'Imagem atualizada');
    expect((await api.deps.knex('operators').where({ id: admin.id }).first('avatar')).avatar).to.match(/\/api\/avatars\/av_/);
    await page.goto('/settings/account/workspace');
    await page.getByTestId('avatar-input-workspace-avatar').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await toast(page, 'Imagem atualizada');
    expect((await api.deps.knex('workspaces').where({ id: admin.workspaceId }).first('avatar')).avatar).to.match(/\/api\/avatars\/av_/);
  });
});
