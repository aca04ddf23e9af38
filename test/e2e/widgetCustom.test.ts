import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../helpers/browser';
import { cutOff, logIn, signUp, type Account } from './support';

/** The background colour the page computes for an element (run in the browser; this project's tsconfig has no DOM types). */
const background = (el: unknown) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }).getComputedStyle(el).backgroundColor;
const week = (active: boolean) => Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { active, hours: [{ startHourIndex: 0, endHourIndex: 96 }] }]));

/**
 * A customer's site: a server of its own on loopback (another origin than the api; a page the browser would
 * see as public may not call a local address at all) serving a page with the install snippet pasted in.
 * Reached as `localhost` it is the allowed site; as `127.0.0.1` (another host name, same server) a foreign one.
 */
let snippetHtml = '';
let site: http.Server | undefined;
let sitePort = 0;
async function hostPage(session: BrowserSession, host: 'localhost' | '127.0.0.1', snippet: string): Promise<Page> {
  snippetHtml = snippet;
  if (!site) {
    site = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="pt-BR"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Loja</title></head><body><h1>Padaria do Bairro</h1>${snippetHtml}</body></html>`);
    });
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
  }
  const page = await session.context.newPage();
  page.on('pageerror', (err) => session.consoleErrors.push(String(err)));
  await page.goto(`http://${host}:${sitePort}/`);
  return page;
}

describe('e2e: a website widget the company makes its own (issue 28)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let agent: BrowserSession;
  let visitor: BrowserSession | undefined;

  before(ensureUiBuilt);
  beforeEach(async () => {
    api = await startTestApi();
    agent = await openPage(api.url);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      for (const [who, session] of [['agent', agent], ['visitor', visitor]] as const) {
        if (!session) continue;
        for (const p of session.context.pages()) console.log(`    ${who} screenshot: ${await screenshotOnFailure(p, `${who} ${this.currentTest.fullTitle()}`)}`);
        console.log(`    ${who} browser errors: ${JSON.stringify(session.consoleErrors)}`);
      }
    }
    await visitor?.close();
    visitor = undefined;
    await agent.close();
    await api.close();
  });
  after(async () => {
    site?.close();
    await closeBrowser();
  });

  const tokenOf = async (account: Account) => {
    const login = await api.request('POST', '/api/operators/login', { body: { email: account.email, password: account.password } });
    return login.body.data.workspace.token as string;
  };

  it('colour, greeting, tagline, position and a pre-chat form set in Configurações show on a host page; the contact gets the name and phone; another site gets nothing', async () => {
    const account = await signUp(api);
    const page = agent.page;
    await logIn(page, account);
    await page.goto('/settings/channels/add/chat-widget');
    await page.getByLabel(/^Descrição/).fill('Site da padaria');
    await page.getByLabel(/^Cor principal/).fill('#B42318');
    await page.getByLabel(/^Saudação/).fill('Oi! Pão quentinho saindo agora. Como podemos ajudar?');
    await page.getByLabel(/^Subtítulo/).fill('Padaria do Bairro');
    await page.getByRole('radiogroup', { name: 'Posição do botão' }).getByLabel('Esquerda').check();
    await page.getByRole('radiogroup', { name: 'Nome' }).getByLabel('Obrigatório').check();
    await page.getByRole('radiogroup', { name: 'Telefone' }).getByLabel('Obrigatório').check();
    await page.getByRole('radiogroup', { name: 'E-mail' }).getByLabel('Opcional').check();
    await page.getByLabel(/^Sites permitidos/).fill('localhost');

    // The preview follows the form before anything is saved.
    const preview = page.getByTestId('widget-preview');
    await preview.getByText('Oi! Pão quentinho saindo agora. Como podemos ajudar?').waitFor();
    await preview.getByText('Padaria do Bairro').waitFor();
    expect(await preview.getByTestId('preview-launcher').getAttribute('data-position')).to.equal('left');
    expect(await preview.getByTestId('preview-header').evaluate(background)).to.equal('rgb(180, 35, 24)');
    await preview.getByText('Iniciar conversa').waitFor();

    await page.getByRole('button', { name: 'Salvar' }).click();
    // Saved: the page moves to the widget's own address (the toast names the channel type, which is being renamed).
    await page.waitForURL(/\/settings\/channels\/chat-widget\/\d+$/);
    const snippet = (await page.getByTestId('widget-snippet').textContent())!;

    visitor = await openPage(api.url);
    const shop = await hostPage(visitor, 'localhost', snippet);
    const launcher = shop.getByRole('button', { name: 'Abrir chat' });
    await launcher.waitFor();
    const box = (await launcher.boundingBox())!;
    expect(box.x + box.width / 2, 'the button sits on the left').to.be.lessThan(640);
    expect(await launcher.evaluate(background)).to.equal('rgb(180, 35, 24)');
    await launcher.click();
    const chat = shop.getByRole('dialog', { name: account.workspace });
    await chat.getByText('Padaria do Bairro').waitFor();
    await chat.getByText('Oi! Pão quentinho saindo agora. Como podemos ajudar?').waitFor();

    // The form asks first: required fields are required, then the composer appears.
    expect(await chat.getByRole('textbox', { name: 'Digite sua mensagem…' }).isVisible()).to.equal(false);
    await chat.getByRole('button', { name: 'Iniciar conversa' }).click();
    await chat.getByText('Informe seu nome.').waitFor();
    await chat.getByText('Informe seu telefone.').waitFor();
    expect(await chat.getByText('Informe seu e-mail.').count(), 'e-mail is optional').to.equal(0);
    await chat.getByLabel(/^Nome/).fill('Rita Souza');
    await chat.getByLabel(/^Telefone/).fill('(11) 91234-5678');
    await chat.getByRole('button', { name: 'Iniciar conversa' }).click();
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Tem pão de queijo?');
    await input.press('Enter');
    await chat.locator('li.msg.mine .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor();

    const contact = await api.deps
      .knex('customer_platforms as cp')
      .join('channels as ch', 'ch.id', 'cp.channel_id')
      .join('customers as c', 'c.id', 'cp.customer_id')
      .where('ch.type', 'widget')
      .where('ch.description', 'Site da padaria')
      .first('c.name', 'c.email', 'c.phone');
    expect(contact).to.deep.equal({ name: 'Rita Souza', email: null, phone: '11912345678' });

    // The same snippet on a site outside the allowed list shows nothing there.
    const foreign = await hostPage(visitor, '127.0.0.1', snippet);
    await foreign.getByRole('heading', { name: 'Padaria do Bairro' }).waitFor();
    await foreign.waitForTimeout(1500);
    expect(await foreign.locator('[data-balcao-widget]').count()).to.equal(0);
  });

  it('at 390x844: out of hours the widget shows the message, and the settings screen and the widget cut nothing off', async () => {
    const account = await signUp(api);
    const token = await tokenOf(account);
    const hours = await api.request('POST', '/api/business-hours', { token, body: { name: 'Fechado para o teste', days: week(false) } });
    expect(hours.status, JSON.stringify(hours.body)).to.equal(201);
    const made = await api.request('POST', '/api/integrations/widget', {
      token,
      body: { description: 'Site', avatar: '#1570EF', businessHoursId: hours.body.data.id, outOfHoursMessage: 'Estamos fechados agora. Voltamos amanhã às 8h.', preChat: { name: 'optional', email: 'optional', phone: 'optional' } },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);

    visitor = await openPage(api.url);
    const v = visitor.page;
    await v.setViewportSize({ width: 390, height: 844 });
    await v.goto(`/widget?workspacePlatformIdentifier=${made.body.data.identifier}`);
    const chat = v.getByRole('dialog', { name: account.workspace });
    await chat.getByText('Estamos fechados agora. Voltamos amanhã às 8h.').waitFor();
    await chat.getByRole('button', { name: 'Iniciar conversa' }).waitFor();
    expect(await cutOff(v)).to.deep.equal([]);

    const page = agent.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, account);
    await page.goto(`/settings/channels/chat-widget/${made.body.data.id}`);
    await page.getByLabel('Identificador').waitFor();
    await page.getByTestId('widget-preview').getByRole('switch').or(page.getByTestId('widget-preview').getByRole('checkbox')).check();
    await page.getByTestId('widget-preview').getByText('Estamos fechados agora. Voltamos amanhã às 8h.').waitFor();
    expect(await cutOff(page)).to.deep.equal([]);
  });

  it('an unknown identifier says so in the page instead of an empty box, on /widget and on a host page', async () => {
    const unknown = 'f'.repeat(32);
    visitor = await openPage(api.url);
    const v = visitor.page;
    await v.goto(`/widget?workspacePlatformIdentifier=${unknown}`);
    const message = /Chat indisponível: este widget não existe ou foi excluído/;
    await v.getByRole('alert').filter({ hasText: message }).waitFor();

    const shop = await hostPage(visitor, 'localhost', `<script src="${api.url}/widget.js" data-identifier="${unknown}" async></script>`);
    await shop.getByRole('button', { name: 'Abrir chat' }).click();
    await shop.getByText(message).waitFor();
  });
});
