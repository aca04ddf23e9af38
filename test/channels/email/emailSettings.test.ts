import { Readable } from 'node:stream';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { STORAGE_BUDGETS } from '../../../api/assets/storageBudgets';
import { allowLoopbackCompanySmtpForTests } from '../../../api/channels/email/testing';
import { openSecret } from '../../../api/channels/secretBox';
import { createStorage } from '../../../api/storage/storage';
import type { TestApi } from '../../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { createMailChannel, mailSuiteHooks } from './support';
import { makeOwner, messageRow, postAgentMessage, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../helpers';
import { RawSmtpSink } from '../../fakes/smtp';

describe('E-mail channel settings: outbound From and SMTP per channel (sealed), attachments both ways, the storage budget and the images view', function () {
  this.timeout(90_000);
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channel: { id: number; identifier: string };
  let client: nodemailer.Transporter;
  const company = new RawSmtpSink({ user: 'suporte@acme.example', pass: 's3nh@ secreta' });
  const companyUrl = () => `smtp://${encodeURIComponent('suporte@acme.example')}:${encodeURIComponent('s3nh@ secreta')}@127.0.0.1:${company.port}`;

  // Hooks of a kind run in the order they are registered: the company server starts first and stops last.
  before(() => company.start());
  after(() => allowLoopbackCompanySmtpForTests(false));
  mailSuiteHooks('email-settings', (s) => ({ api, client, worker } = s));
  after(() => company.stop());
  beforeEach(async () => {
    allowLoopbackCompanySmtpForTests(false);
    ({ ws, owner } = await makeOwner(api));
    channel = await createMailChannel(api, owner);
  });

  const send = (mail: Mail.Options) => client.sendMail({ to: channel.identifier, messageId: `<${unique('m')}@cliente.example>`, ...mail });
  const messagesOf = () => api.deps.knex('messages').where({ channelId: channel.id }).orderBy('id');
  const put = (body: Record<string, unknown>, token = owner.token) => api.request('PUT', `/api/integrations/mail/${channel.id}`, { token, body });
  const storedObjects = async () => (await readdir(path.join(api.config.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).length;

  async function inboundConversation(from = 'ana@cliente.example'): Promise<number> {
    await send({ from, subject: 'Pedido 42', text: 'Cadê meu pedido?' });
    return (await messagesOf())[0].customerPlatformId as number;
  }
  async function reply(body: Record<string, unknown>, state: 'sent' | 'failed' = 'sent'): Promise<number> {
    let id = 0;
    await withChannelWorker(api, worker, async () => {
      id = await postAgentMessage(api, owner, body);
      await untilDeliveryState(api, id, state);
    }, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 3 } });
    return id;
  }

  it('GET and PUT /integrations/mail/{id}: description, From name and address; the forwarding address never changes; level 6+ only, own workspace only', async () => {
    const got = await api.request('GET', `/api/integrations/mail/${channel.id}`, { token: owner.token });
    // With SMTP_URL set (the suite's test mailbox) the product's server sends: the channel page has nothing to warn about.
    expect(got.body.data).to.include({ id: channel.id, identifier: channel.identifier, fromName: '', fromAddress: '', smtp: 'product', outboundReady: true });
    const saved = await put({ description: 'Atendimento', fromName: 'Suporte Acme', fromAddress: 'suporte@acme.example', identifier: 'outro@x.example' });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body.data).to.include({ description: 'Atendimento', fromName: 'Suporte Acme', fromAddress: 'suporte@acme.example', identifier: channel.identifier, smtp: 'product' });

    const bad = await put({ description: '', fromAddress: 'não é e-mail', smtp: 'company', smtpUrl: 'http://x' });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['description', 'fromAddress', 'smtpUrl']);

    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    expect((await put({ description: 'x' }, agent.token)).status).to.equal(403);
    const other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    expect((await api.request('GET', `/api/integrations/mail/${channel.id}`, { token: other.token })).status).to.equal(404);
    expect((await put({ description: 'x' }, other.token)).status).to.equal(404);
  });

  it('a company SMTP URL is kept sealed and never answered; replies then go through it, logged in, From the configured name and address', async () => {
    // A URL naming a private address is refused (user input, like a webhook URL).
    const refused = await put({ description: 'Suporte', smtp: 'company', smtpUrl: `smtp://u:p@127.0.0.1:${company.port}` });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0]).to.include({ key: 'smtpUrl' });
    expect((await put({ description: 'Suporte', smtp: 'company' })).body.errors[0]).to.include({ key: 'smtpUrl' });

    allowLoopbackCompanySmtpForTests(true);
    const saved = await put({ description: 'Suporte', fromName: 'Suporte Acme', fromAddress: 'suporte@acme.example', smtp: 'company', smtpUrl: companyUrl() });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body.data.smtp).to.equal('company');
    const raw = JSON.stringify([saved.body, (await api.request('GET', `/api/integrations/mail/${channel.id}`, { token: owner.token })).body, (await api.request('GET', '/api/integrations/channel', { token: owner.token })).body]);
    expect(raw).to.not.include('secreta').and.not.include('smtpUrl');
    const row = await api.deps.knex('channels').where({ id: channel.id }).first();
    expect(JSON.stringify(row.config)).to.not.include('secreta');
    expect(openSecret(api.config, row.config.smtpUrlSealed)).to.equal(companyUrl());

    // Saving again without a URL keeps the sealed one.
    expect((await put({ description: 'Suporte 2', fromName: 'Suporte Acme', fromAddress: 'suporte@acme.example', smtp: 'company' })).status).to.equal(200);
    const conversationId = await inboundConversation();
    const before = api.mailbox.mails.length;
    const id = await reply({ id: conversationId, content: delta('Chega amanhã.') });
    const mail = await company.waitFor((m) => m.parsed.text?.includes('Chega amanhã.') ?? false);
    expect(mail.user).to.equal('suporte@acme.example');
    expect(mail.rcptTo).to.deep.equal(['ana@cliente.example']);
    expect(mail.parsed.from?.value[0]).to.deep.include({ name: 'Suporte Acme', address: 'suporte@acme.example' });
    expect(mail.parsed.replyTo?.value[0].address).to.equal(channel.identifier);
    expect(mail.parsed.messageId).to.equal((await messageRow(api, id)).externalId);
    expect(api.mailbox.mails.length, 'nothing through the product SMTP').to.equal(before);

    // Back to the product's SMTP: the sealed URL is dropped.
    expect((await put({ description: 'Suporte', smtp: 'product' })).body.data.smtp).to.equal('product');
    expect((await api.deps.knex('channels').where({ id: channel.id }).first()).config.smtpUrlSealed).to.equal(undefined);
  });

  it('a reply the mail server refuses for now (451) is retried with the same Message-ID and delivered once; a permanent refusal (550) shows on the message at once', async () => {
    allowLoopbackCompanySmtpForTests(true);
    expect((await put({ description: 'Suporte', smtp: 'company', smtpUrl: companyUrl() })).status).to.equal(200);
    const conversationId = await inboundConversation();

    company.refuseNext.push({ code: 451, message: 'Try again later' });
    const id = await reply({ id: conversationId, content: delta('Tentativa repetida.') });
    const tried = company.refused.filter((m) => m.parsed.text?.includes('Tentativa repetida.'));
    const delivered = company.mails.filter((m) => m.parsed.text?.includes('Tentativa repetida.'));
    expect([tried.length, delivered.length]).to.deep.equal([1, 1]);
    expect(delivered[0].parsed.messageId).to.equal(tried[0].parsed.messageId);
    expect((await messageRow(api, id)).externalId).to.equal(delivered[0].parsed.messageId);

    company.refuseNext.push({ code: 550, message: 'Mailbox unavailable' });
    const refusedId = await reply({ id: conversationId, content: delta('Não vai chegar.') }, 'failed');
    expect(company.refused.filter((m) => m.parsed.text?.includes('Não vai chegar.'))).to.have.length(1);
    expect(company.mails.filter((m) => m.parsed.text?.includes('Não vai chegar.'))).to.have.length(0);
    expect((await messageRow(api, refusedId)).deliveryError).to.equal('O servidor de e-mail recusou a mensagem (550).');
  });

  it('the agent’s files go out attached to the reply, byte for byte', async () => {
    allowLoopbackCompanySmtpForTests(true);
    expect((await put({ description: 'Suporte', smtp: 'company', smtpUrl: companyUrl() })).status).to.equal(200);
    const conversationId = await inboundConversation();
    const pdf = Buffer.from('%PDF-1.4 proposta comercial');
    const key = unique('mail-doc');
    await createStorage(api.config).put(key, Readable.from(pdf));
    await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key, fileName: 'proposta.pdf', mime: 'application/pdf', size: pdf.length });
    await reply({ id: conversationId, content: [{ file: { key, fileName: 'proposta.pdf', mime: 'application/pdf', size: pdf.length } }] });
    const mail = await company.waitFor((m) => m.parsed.attachments.length > 0);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).to.deep.equal([['proposta.pdf', 'application/pdf']]);
    expect(mail.parsed.attachments[0].content.equals(pdf)).to.equal(true);
    expect(mail.parsed.subject).to.equal('Re: Pedido 42');
  });

  it('an attachment past the workspace storage budget is not kept: a note in the message, no object and no row left', async () => {
    await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: unique('budget'), fileName: 'antigo.bin', mime: 'application/octet-stream', size: STORAGE_BUDGETS.workspaceTotal - 10 });
    const objects = await storedObjects();
    await send({ from: 'joao@cliente.example', subject: 'Fatura', text: 'Segue a fatura.', attachments: [{ filename: 'fatura.pdf', content: Buffer.from('%PDF-1.4 fatura grande demais'), contentType: 'application/pdf' }] });
    const [row] = await messagesOf();
    expect(row.isMedia).to.equal(false);
    expect(row.text).to.include('Segue a fatura.').and.include('Arquivo "fatura.pdf" não recebido: o espaço para arquivos deste workspace (10 GB) está cheio.');
    expect(await api.deps.knex('stored_files').where({ workspaceId: ws.id, fileName: 'fatura.pdf' })).to.have.length(0);
    expect(await storedObjects()).to.equal(objects);
  });

  it('"Mostrar imagens": a signed view of the e-mail for an agent who sees it, served with a CSP that lets only images and styles load and runs no script', async () => {
    await send({ from: 'bia@cliente.example', subject: 'Promo', text: 'Veja', html: '<p>Veja</p><img src="https://imagens.example/p.png"><script>alert(1)</script><meta http-equiv="refresh" content="0;url=https://mal.example">' });
    const [m] = await messagesOf();
    const view = await api.request('POST', `/api/integrations/mail/messages/${m.id}/html-view`, { token: owner.token });
    expect(view.status, JSON.stringify(view.body)).to.equal(200);
    const url = view.body.data.url as string;
    expect(url).to.match(/^\/api\/integrations\/mail\/html\/\d+\?exp=\d+&sig=/);
    const res = await fetch(api.url + url);
    expect(res.status).to.equal(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include('img-src https: data:').and.include("default-src 'none'").and.include('sandbox').and.include("frame-ancestors 'self'");
    expect(csp).to.not.include('allow-scripts').and.not.include('allow-same-origin');
    expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
    const body = await res.text();
    expect(body).to.include('https://imagens.example/p.png').and.not.include('<script').and.not.include('mal.example');

    expect((await fetch(api.url + url.replace(/sig=[^&]+/, 'sig=forjada'))).status).to.equal(404);
    expect((await fetch(api.url + url.replace(`/html/${m.id}`, `/html/${m.id + 1}`))).status).to.equal(404);
    // Another workspace's agent, and an agent who cannot see the conversation, get no link.
    const other = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    expect((await api.request('POST', `/api/integrations/mail/messages/${m.id}/html-view`, { token: other.token })).status).to.equal(404);
    await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).update({ operatorId: owner.id });
    const restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    expect((await api.request('POST', `/api/integrations/mail/messages/${m.id}/html-view`, { token: restricted.token })).status).to.equal(404);
  });

  it('deleting the channel refuses mail for its address afterwards', async () => {
    const del = await api.request('DELETE', `/api/integrations/mail/${channel.id}`, { token: owner.token });
    expect(del.status).to.equal(200);
    const err = await send({ from: 'ana@cliente.example', subject: 'Oi', text: 'Oi' }).then(
      () => undefined,
      (e: { responseCode?: number }) => e,
    );
    expect(err?.responseCode).to.equal(550);
  });
});
