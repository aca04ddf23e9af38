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
      if (r.url().includes('rastreio.png')) tracker.push(r.url());
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
});
