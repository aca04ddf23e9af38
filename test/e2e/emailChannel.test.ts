import { expect } from 'chai';
import nodemailer from 'nodemailer';
import type { Page } from 'playwright-core';
import { startInboundSmtp, type InboundSmtp } from '../../api/channels/email/smtpServer';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { unique, type TestOperator } from '../helpers/factories';
import { prepareWorker, until, type WorkerSetup } from '../channels/helpers';
import { composer as composerOf, logInLive, makeLineOwner, messageLog, openConversation, withQuickRetries } from './channelSteps';

/** A 1×1 transparent PNG, what the image host answers. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/**
 * An e-mail channel end to end in the browser: a real SMTP client (nodemailer) sends an HTML mail with an
 * attachment to our SMTP server, it shows live in the inbox (HTML in the sandboxed frame, remote images
 * blocked until 'Mostrar imagens', the attachment to download), and the agent's reply reaches a real
 * SMTP sink threaded: 'Re:' subject, In-Reply-To and References naming the customer's mail.
 */
describe('e2e: e-mail live in the inbox, remote images on request, the reply threaded to a real SMTP sink', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;
  let worker: WorkerSetup;
  let smtp: InboundSmtp;
  let address: string;
  const taskQueue = unique('mail-e2e');

  before(async () => {
    worker = await prepareWorker();
  });
  after(async () => {
    await worker?.connection.close();
  });
  useAppPage((s) => ({ api, page } = s), () => ({ temporalTaskQueue: taskQueue }));
  beforeEach(async () => {
    smtp = await startInboundSmtp(api.deps, { port: 0, host: '127.0.0.1' });
    owner = await makeLineOwner(api);
    const res = await api.request('POST', '/api/integrations/mail', { token: owner.token, body: { description: 'Suporte Acme' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    address = res.body.data.identifier;
  });
  afterEach(async () => {
    await smtp?.close();
  });

  it('an HTML mail with an attachment shows live; images load only on request; the reply goes out with Re:, In-Reply-To and References', async () => {
    const imageRequests: string[] = [];
    await page.context().route('https://imagens.example/**', async (route) => {
      imageRequests.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL });
    });
    await withQuickRetries(api, worker, async () => {
      await logInLive(page, owner);

      const messageId = `<${unique('pedido')}@cliente.example>`;
      const client = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
      await client.sendMail({
        from: '"Carla Cliente" <carla@cliente.example>',
        to: address,
        subject: 'Troca do pedido 31',
        messageId,
        text: 'Quero trocar o tamanho do pedido 31.',
        html: '<p>Quero trocar o <b>tamanho</b> do pedido 31.</p><img src="https://imagens.example/logo.png" alt="logo"><script>new Image().src = "https://imagens.example/script-rodou.png"</script>',
        attachments: [{ filename: 'nota-fiscal.pdf', content: Buffer.from('%PDF-1.4 nota fiscal'), contentType: 'application/pdf' }],
      });
      client.close();

      // Live in the list, then the HTML in its sandboxed frame and the attachment below it.
      await openConversation(page, 'Quero trocar o tamanho');
      const log = messageLog(page);
      const mail = log.getByRole('article').filter({ hasText: 'Troca do pedido 31' });
      await mail.waitFor();
      await page.frameLocator('iframe[data-testid="email-html"]').locator('b', { hasText: 'tamanho' }).waitFor();
      await mail.getByRole('link', { name: 'Baixar: nota-fiscal.pdf' }).waitFor();

      // Remote images stay blocked until the agent asks; then only images load, still without scripts.
      await mail.getByText('Imagens externas bloqueadas para proteger sua privacidade.').waitFor();
      expect(imageRequests).to.deep.equal([]);
      await mail.getByRole('button', { name: 'Mostrar imagens' }).click();
      await page.locator('iframe[data-testid="email-html"][data-images="shown"]').waitFor();
      const frame = page.locator('iframe[data-testid="email-html"]');
      expect((await frame.getAttribute('sandbox')) ?? '').to.not.include('allow-scripts').and.not.include('allow-same-origin');
      // The image the e-mail names arrives; the e-mail's script (which would fetch another one) never runs.
      await until(async () => imageRequests.length > 0, 5_000);
      await mail.getByText('Imagens externas bloqueadas para proteger sua privacidade.').waitFor({ state: 'detached' });
      expect(imageRequests).to.deep.equal(['https://imagens.example/logo.png']);

      // The reply, threaded.
      const before = api.mailbox.mails.length;
      const composer = composerOf(page);
      await composer.pressSequentially('Claro, Carla! Qual tamanho você prefere?');
      await composer.press('Enter');
      const sent = await api.mailbox.waitFor('carla@cliente.example', (m) => api.mailbox.mails.indexOf(m) >= before, 20_000);
      const header = (name: string) => new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(sent.raw)?.[1]?.replace(/\r?\n[ \t]+/g, ' ');
      expect(sent.subject).to.equal('Re: Troca do pedido 31');
      expect(header('In-Reply-To')).to.equal(messageId);
      expect(header('References')).to.include(messageId);
      expect(header('Reply-To')).to.include(address);
      // The sink's raw text decodes quoted-printable byte by byte: compare the ASCII part.
      expect(sent.raw).to.include('Claro, Carla! Qual tamanho');
      // Seconds later, still only the image: no script of the e-mail ran in either view.
      expect(imageRequests).to.deep.equal(['https://imagens.example/logo.png']);
    });
  });
});
