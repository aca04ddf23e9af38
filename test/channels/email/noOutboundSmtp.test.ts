import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { allowLoopbackCompanySmtpForTests } from '../../../api/channels/email/testing';
import type { TestApi } from '../../helpers/api';
import { unique, type TestOperator } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { createMailChannel, mailSuiteHooks } from './support';
import { makeOwner, messageRow, postAgentMessage, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../helpers';
import { RawSmtpSink } from '../../fakes/smtp';

/**
 * `npm start` runs without SMTP_URL: a reply then only lands in DATA_DIR/outbox. The customer got nothing, so
 * the message must not read as sent, and the channel page says why (docs/channels/email.md "Saída").
 */
describe('E-mail channel without an outbound SMTP: replies are marked not sent, the channel warns', function () {
  this.timeout(90_000);
  let api: TestApi;
  let worker: WorkerSetup;
  let owner: TestOperator;
  let channel: { id: number; identifier: string };
  let client: nodemailer.Transporter;
  const company = new RawSmtpSink({ user: 'suporte@acme.example', pass: 'segredo' });

  before(() => company.start());
  mailSuiteHooks('email-no-smtp', (s) => ({ api, client, worker } = s), { smtpUrl: undefined });
  after(() => allowLoopbackCompanySmtpForTests(false));
  after(() => company.stop());
  beforeEach(async () => {
    ({ owner } = await makeOwner(api));
    channel = await createMailChannel(api, owner);
  });

  const channelView = async () => (await api.request('GET', `/api/integrations/mail/${channel.id}`, { token: owner.token })).body.data as { outboundReady: boolean; smtp: string };

  it('a reply with neither SMTP_URL nor a company SMTP is written to the outbox but ends failed with "Não enviado: configure o SMTP de saída"', async () => {
    expect(api.config.smtpUrl).to.equal(undefined);
    await client.sendMail({ from: 'ana@cliente.example', to: channel.identifier, subject: 'Pedido 42', text: 'Cadê meu pedido?', messageId: `<${unique('m')}@cliente.example>` });
    const [inbound] = await api.deps.knex('messages').where({ channelId: channel.id });
    let id = 0;
    await withChannelWorker(api, worker, async () => {
      id = await postAgentMessage(api, owner, { id: inbound.customerPlatformId, content: delta('Já está a caminho.') });
      await untilDeliveryState(api, id, 'failed');
    }, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 3 } });
    expect(await messageRow(api, id)).to.include({ deliveryState: 'failed', deliveryError: 'Não enviado: configure o SMTP de saída' });
    // The agent's conversation view answers the same reason.
    const list = await api.request('GET', `/api/inbox/messages?id=${inbound.customerPlatformId}`, { token: owner.token });
    const listed = (list.body.data as { id: number; deliveryState: string; deliveryError: string }[] | undefined)?.find((m) => m.id === id);
    expect(listed, JSON.stringify(list.body).slice(0, 300)).to.include({ deliveryState: 'failed', deliveryError: 'Não enviado: configure o SMTP de saída' });
    // The outbox still gets the mail, for development.
    const outbox = path.join(api.config.dataDir, 'outbox');
    const files = (await readdir(outbox)).filter((f) => f.endsWith(`-mensagem-${id}.eml`));
    expect(files).to.have.length(1);
    expect(await readFile(path.join(outbox, files[0]), 'utf8')).to.include('a caminho.').and.include('Subject: Re: Pedido 42');
  });

  it('GET /integrations/mail/{id} answers outboundReady false without any SMTP, true once the channel has its own SMTP', async () => {
    expect(await channelView()).to.include({ outboundReady: false, smtp: 'product' });
    allowLoopbackCompanySmtpForTests(true);
    const url = `smtp://${encodeURIComponent('suporte@acme.example')}:segredo@127.0.0.1:${company.port}`;
    const saved = await api.request('PUT', `/api/integrations/mail/${channel.id}`, { token: owner.token, body: { description: 'Suporte', smtp: 'company', smtpUrl: url } });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body.data).to.include({ outboundReady: true, smtp: 'company' });
    expect(await channelView()).to.include({ outboundReady: true });
  });
});
