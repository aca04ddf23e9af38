import { expect } from 'chai';
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { startInboundSmtp, type InboundSmtp } from '../../../api/channels/email/smtpServer';
import { startTestApi, type TestApi } from '../../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../../helpers/browser';
import { logIn, signUp, toast } from '../../e2e/support';

describe('e2e: /settings/channels/add/email', function () {
  this.timeout(120_000);
  let api: TestApi;
  let smtp: InboundSmtp;
  let agent: BrowserSession;
  let page: Page;

  before(async () => {
    await ensureUiBuilt();
    api = await startTestApi();
    smtp = await startInboundSmtp(api.deps, { port: 0, host: '127.0.0.1' });
    agent = await openPage(api.url);
    page = agent.page;
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const file = await screenshotOnFailure(page, this.currentTest.fullTitle());
      console.log(`    screenshot: ${file}\n    browser errors: ${JSON.stringify(agent.consoleErrors)}`);
    }
  });
  after(async () => {
    await agent?.close();
    await smtp?.close();
    await api?.close();
    await closeBrowser();
  });

  it('saves the channel (toast), shows the generated forwarding address to copy, and mail sent there reaches the inbox', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.goto('/settings/channels/add');
    await page.getByRole('link', { name: /E-mail/ }).click();
    await page.waitForURL('**/settings/channels/add/email');

    await page.getByRole('button', { name: 'Salvar' }).click();
    expect(await page.getByLabel(/^Descrição/).getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel(/^Descrição/).fill('Suporte por e-mail');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Canal de E-mail salvo');
    const address = await page.getByLabel('Endereço de encaminhamento').inputValue();
    expect(address).to.match(new RegExp(`^[0-9a-f]{20}@${api.config.inboundEmailDomain.replace(/\./g, '\\.')}$`));

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    await page.getByRole('button', { name: 'Copiar' }).click();
    await toast(page, 'Copiado para clipboard');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).to.equal(address);

    const client = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    const tracker: string[] = [];
    page.on('request', (r) => {
      // Where a request came from (the frame, the page) is in the failure, should one ever come.
      if (!r.url().includes('rastreio.png')) return;
      let frame = 'service worker';
      try {
        frame = r.frame().url().slice(0, 60);
      } catch {
        // A service worker's request has no frame.
      }
      tracker.push(`${r.url()} (${r.resourceType()}, frame ${frame})`);
    });
    await client.sendMail({
      from: 'carla@cliente.example',
      to: address,
      subject: 'Dúvida',
      text: 'Vocês entregam no sábado?',
      html: `<p>Vocês entregam no <b>sábado</b>?</p><img src="${api.url}/rastreio.png" alt="rastreio"><script>document.body.dataset.ran = 'sim'</script>`,
    });
    client.close();
    const token = await page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token");
    const list = await api.request('GET', '/api/inbox?segmentId=all', { token });
    const found = list.body.data?.find((c: { platformId: number; lastMessage: { text: string } | null }) => c.platformId === 5);
    expect(found?.lastMessage?.text).to.equal('Vocês entregam no sábado?');

    // The HTML body shows in a sandboxed frame: no scripts, an opaque origin, remote images not fetched.
    await page.goto(`/inbox/all/${found.id}`);
    const frame = page.locator('iframe[data-testid="email-html"]');
    await frame.waitFor();
    const sandbox = (await frame.getAttribute('sandbox')) ?? '';
    expect(sandbox).to.not.include('allow-scripts');
    expect(sandbox).to.not.include('allow-same-origin');
    await page.frameLocator('iframe[data-testid="email-html"]').locator('b', { hasText: 'sábado' }).waitFor();
    expect(await page.frameLocator('iframe[data-testid="email-html"]').locator('body').getAttribute('data-ran')).to.equal(null);
    await page.waitForTimeout(300);
    expect(tracker).to.deep.equal([]);
  });
  it('the channel page /settings/channels/email/{id}: the address to copy, the From name and address saved, the company SMTP URL never shown back, delete', async () => {
    await page.goto('/user/logout');
    await page.waitForURL('**/user/login');
    const account = await signUp(api);
    await logIn(page, account);
    const token = await page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token");
    const made = await api.request('POST', '/api/integrations/mail', { token, body: { description: 'Vendas' } });
    const channel = made.body.data as { id: number; identifier: string };

    // From the list, a row opens the channel's page.
    await page.goto('/settings/channels');
    await page.getByText('Vendas').click();
    await page.waitForURL(`**/settings/channels/email/${channel.id}`);
    expect(await page.getByLabel('Endereço de encaminhamento').inputValue()).to.equal(channel.identifier);

    await page.getByLabel('Nome do remetente').fill('Vendas Acme');
    await page.getByLabel('E-mail do remetente').fill('vendas@acme.example');
    await page.getByLabel('Servidor SMTP da empresa').check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Informe a URL do servidor SMTP da empresa.').waitFor();
    await page.getByLabel('URL do servidor SMTP').fill('smtp://vendas:segredo@10.0.0.5:587');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('O servidor SMTP 10.0.0.5 não tem um endereço público.').waitFor();
    await page.getByLabel('Servidor de e-mail do Balcão').check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Canal de E-mail salvo');
    const row = await api.deps.knex('channels').where({ id: channel.id }).first();
    expect(row.config).to.include({ fromName: 'Vendas Acme', fromAddress: 'vendas@acme.example' });
    expect(row.config.smtpUrlSealed).to.equal(undefined);

    await page.reload();
    expect(await page.getByLabel('Nome do remetente').inputValue()).to.equal('Vendas Acme');
    await page.getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Excluído com sucesso.');
    await page.waitForURL('**/settings/channels');
    expect(await api.deps.knex('channels').where({ id: channel.id })).to.have.length(0);
  });
  it('without SMTP_URL or a company SMTP the channel page warns that replies do not reach customers, and a reply that failed for it reads "Não enviado: configure o SMTP de saída"', async () => {
    await page.goto('/user/logout');
    await page.waitForURL('**/user/login');
    const account = await signUp(api);
    await logIn(page, account);
    const token = await page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token");
    const channel = (await api.request('POST', '/api/integrations/mail', { token, body: { description: 'Pós-venda' } })).body.data as { id: number; identifier: string };
    const warning = page.getByTestId('email-no-outbound-smtp');

    // The suite's api has SMTP_URL (its test mailbox): no warning.
    await page.goto(`/settings/channels/email/${channel.id}`);
    await page.getByLabel('Endereço de encaminhamento').waitFor();
    expect(await warning.count()).to.equal(0);

    const smtpUrl = api.config.smtpUrl;
    api.config.smtpUrl = undefined;
    try {
      await page.reload();
      await warning.waitFor();
      expect(await warning.textContent()).to.include('não há SMTP de saída configurado').and.include('Não enviado: configure o SMTP de saída');

      // A reply the adapter failed for that reason (test/channels/email/noOutboundSmtp.test.ts) shows it as is.
      const client = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
      await client.sendMail({ from: 'davi@cliente.example', to: channel.identifier, subject: 'Troca', text: 'Posso trocar?' });
      client.close();
      const inbound = await api.deps.knex('messages').where({ channelId: channel.id }).first();
      await api.deps.knex('messages').insert({
        workspaceId: inbound.workspaceId,
        customerPlatformId: inbound.customerPlatformId,
        callId: inbound.callId,
        content: JSON.stringify([{ insert: 'Pode sim.' }]),
        text: 'Pode sim.',
        type: 0,
        status: 1,
        sender: 'operator',
        deliveryState: 'failed',
        deliveryError: 'Não enviado: configure o SMTP de saída',
      });
      await page.goto(`/inbox/all/${inbound.customerPlatformId}`);
      const failed = page.getByTestId('delivery-error');
      await failed.waitFor();
      expect(await failed.textContent()).to.equal('Não enviado: configure o SMTP de saída');
      // No delivery clock beside it: a failed message is not on its way.
      expect(await page.getByRole('article').filter({ has: failed }).locator('[data-status]').count()).to.equal(0);
    } finally {
      api.config.smtpUrl = smtpUrl;
    }
  });
});
