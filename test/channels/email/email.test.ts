import { expect } from 'chai';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { createStorage } from '../../../api/storage/storage';
import type { TestApi } from '../../helpers/api';
import { unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import type { InboundSmtp } from '../../../api/channels/email/smtpServer';
import { createMailChannel, mailSuiteHooks, smtpDialog } from './support';
import { makeOwner, messageRow, postAgentMessage, sleep, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../helpers';

describe('E-mail channel: a forwarding address, our SMTP server in, agent replies out threaded', function () {
  this.timeout(90_000);
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channel: { id: number; identifier: string; channelId: string; platformId: number; status: string };
  let client: nodemailer.Transporter;

  let smtp: InboundSmtp;
  mailSuiteHooks('email', (s) => ({ api, client, worker, smtp } = s));
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    channel = await createMailChannel(api, owner);
  });

  const send = (mail: Mail.Options) => client.sendMail({ to: channel.identifier, ...mail });
  const mid = () => `<${unique('mail')}@cliente.example>`;
  const messagesOf = () => api.deps.knex('messages').where({ channelId: channel.id }).orderBy('id');

  const withWorker = (fn: () => Promise<void>) => withChannelWorker(api, worker, fn, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 4 } });
  /** The agent answers a conversation through the delivery path; returns the mail our sink received. */
  async function agentReply(conversationId: number, text: string, to: string) {
    const before = api.mailbox.mails.length;
    let messageId = 0;
    await withWorker(async () => {
      messageId = await postAgentMessage(api, owner, { id: conversationId, content: delta(text) });
      await untilDeliveryState(api, messageId, 'sent');
    });
    const mail = await api.mailbox.waitFor(to, (m) => api.mailbox.mails.indexOf(m) >= before && m.raw.includes(text));
    const row = await messageRow(api, messageId);
    return { mail, row };
  }
  const headerOf = (raw: string, name: string) => new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw)?.[1]?.replace(/\r?\n[ \t]+/g, ' ');

  it('POST /integrations/mail generates the forwarding address at INBOUND_EMAIL_DOMAIN', async () => {
    expect(channel).to.include({ channelId: 'email', platformId: 5, status: 'connected' });
    expect(channel.identifier).to.match(new RegExp(`^[0-9a-f]{20}@${api.config.inboundEmailDomain.replace(/\./g, '\\.')}$`));
    const bad = await api.request('POST', '/api/integrations/mail', { token: owner.token, body: { description: ' ' } });
    expect(bad.status).to.equal(400);
  });

  it('refuses an unknown recipient at RCPT TO and stores nothing', async () => {
    const err = await client.sendMail({ from: 'maria@cliente.example', to: `naoexiste@${api.config.inboundEmailDomain}`, subject: 'Oi', text: 'Oi' }).then(
      () => undefined,
      (e: { responseCode?: number; command?: string }) => e,
    );
    expect(err?.responseCode).to.equal(550);
    expect(err?.command).to.equal('RCPT TO');
  });

  it('takes at most 5 recipients per mail (452 for the next) and stores the mail once for each channel it reached', async () => {
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await createMailChannel(api, owner));
    const to = [channel, ...others].map((c) => c.identifier);
    const info = await client.sendMail({ from: 'maria@cliente.example', to, subject: 'Para todos', text: 'Oi a todos', messageId: mid() });
    expect(info.accepted).to.deep.equal(to.slice(0, 5));
    expect(info.rejected).to.deep.equal([to[5]]);
    expect((info as unknown as { rejectedErrors: { responseCode: number }[] }).rejectedErrors[0].responseCode).to.equal(452);
    const rows = await api.deps.knex('messages').whereIn('channelId', [channel, ...others].map((c) => c.id)).select('channelId');
    expect(rows.map((r) => r.channelId).sort()).to.deep.equal([channel, ...others].slice(0, 5).map((c) => c.id).sort());
  });

  it('refuses a mail over 25 MB (announced with SIZE or not) with 552 and stores nothing', async () => {
    const header = `From: maria@cliente.example\r\nTo: ${channel.identifier}\r\nSubject: Grande\r\nMessage-ID: ${mid()}\r\n\r\n`;
    const raw = Buffer.concat([Buffer.from(header), Buffer.alloc(25 * 1024 * 1024, 'a\r\n'.repeat(1))]);
    const refusal = (e: { responseCode?: number; command?: string }) => e;
    const unannounced = await client.sendMail({ envelope: { from: 'maria@cliente.example', to: [channel.identifier] }, raw }).then(() => undefined, refusal);
    expect(unannounced?.responseCode).to.equal(552);
    // A client that announces the size is refused at MAIL FROM, before any byte of the mail (the server advertises SIZE).
    const dialog = await smtpDialog(smtp.port, ['EHLO cliente.example', `MAIL FROM:<maria@cliente.example> SIZE=${raw.length}`, 'QUIT']);
    expect(dialog[1]).to.match(/^250[- ]SIZE 26214400$/m);
    expect(dialog[2]).to.match(/^552 /);
    expect(await messagesOf()).to.have.length(0);
  });

  it('an attachment over 16 MB is not kept: a note in the message instead, the rest of the mail stored', async () => {
    const big = Buffer.alloc(16 * 1024 * 1024 + 1, 7);
    const small = Buffer.from('%PDF-1.4 pequeno');
    await send({ from: 'joao@cliente.example', subject: 'Fotos', text: 'Seguem os arquivos.', messageId: mid(), attachments: [{ filename: 'video.mp4', content: big, contentType: 'video/mp4' }, { filename: 'nota.pdf', content: small, contentType: 'application/pdf' }] });
    const [row] = await messagesOf();
    expect(row.text).to.include('Seguem os arquivos.').and.include('[Anexo "video.mp4" não recebido: maior que 16 MB]');
    const files = (row.content as { file?: { fileName: string } }[]).filter((i) => i.file).map((i) => i.file!.fileName);
    expect(files).to.deep.equal(['nota.pdf']);
    expect(await api.deps.knex('stored_files').where({ channelId: channel.id, fileName: 'video.mp4' })).to.have.length(0);
  });

  it('stores a mail as an EMAIL message with {from, to, subject}, once per Message-ID', async () => {
    const messageId = mid();
    const mail = { from: '"Maria Cliente" <Maria@Cliente.example>', subject: 'Pedido 123', text: 'Meu pedido não chegou.', html: '<p>Meu pedido <b>não</b> chegou.</p>', messageId };
    await send(mail);
    await send(mail);
    const rows = await messagesOf();
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ type: 4, sender: 'customer', externalId: messageId, text: 'Meu pedido não chegou.' });
    expect(rows[0].extraData).to.include({ from: 'maria@cliente.example', subject: 'Pedido 123', messageId });
    expect(rows[0].extraData.to).to.deep.equal([channel.identifier]);
    expect(rows[0].extraData.html).to.include('<b>não</b>');
    const cp = await api.deps.knex('customer_platforms').where({ id: rows[0].customerPlatformId }).first();
    const customer = await api.deps.knex('customers').where({ id: cp.customerId }).first();
    expect(customer).to.include({ name: 'Maria Cliente', email: 'maria@cliente.example' });
  });

  it('stores attachments as files', async () => {
    const pdf = Buffer.from('%PDF-1.4 fatura de teste');
    await send({ from: 'joao@cliente.example', subject: 'Fatura', text: 'Segue a fatura.', messageId: mid(), attachments: [{ filename: 'fatura.pdf', content: pdf, contentType: 'application/pdf' }] });
    const [row] = await messagesOf();
    const file = (row.content as { file?: { key: string; fileName: string; mime: string; size: number } }[]).find((i) => i.file)?.file;
    expect(file).to.include({ fileName: 'fatura.pdf', mime: 'application/pdf', size: pdf.length });
    expect(row.isMedia).to.equal(true);
    const stored = await api.deps.knex('stored_files').where({ key: file!.key }).first();
    expect(stored).to.include({ workspaceId: ws.id, channelId: channel.id });
    const obj = await createStorage(api.config).get(file!.key);
    const chunks: Buffer[] = [];
    for await (const c of obj!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(pdf)).to.equal(true);
  });

  it('threads: the reply goes out with Re:/In-Reply-To/References/Reply-To; only the customer’s answer joins, a forged References from another sender starts a new conversation', async () => {
    const first = mid();
    await send({ from: 'ana@cliente.example', subject: 'Troca de produto', text: 'Quero trocar.', messageId: first });
    const [inbound] = await messagesOf();
    const conversationId = inbound.customerPlatformId;

    const { mail, row } = await agentReply(conversationId, 'Claro, pode trocar.', 'ana@cliente.example');
    expect(mail.subject).to.equal('Re: Troca de produto');
    expect(headerOf(mail.raw, 'In-Reply-To')).to.equal(first);
    expect(headerOf(mail.raw, 'References')).to.include(first);
    expect(headerOf(mail.raw, 'Reply-To')).to.include(channel.identifier);
    expect(headerOf(mail.raw, 'Message-ID')).to.equal(row.externalId);
    expect(mail.raw).to.match(/Content-Type: text\/plain/i).and.match(/Content-Type: text\/html/i);

    await send({ from: 'ana@cliente.example', subject: 'Re: Re: Troca de produto', text: 'Obrigada!', messageId: mid(), inReplyTo: row.externalId, references: [first, row.externalId] });
    const answer = (await messagesOf()).find((m) => m.text === 'Obrigada!');
    expect(answer.customerPlatformId).to.equal(conversationId);

    await send({ from: 'intruso@outro.example', subject: 'Re: Troca de produto', text: 'Injetado', messageId: mid(), inReplyTo: row.externalId, references: [first, row.externalId] });
    const forged = (await messagesOf()).find((m) => m.text === 'Injetado');
    expect(forged.customerPlatformId).to.not.equal(conversationId);
    const forgedCp = await api.deps.knex('customer_platforms').where({ id: forged.customerPlatformId }).first();
    expect(forgedCp.externalId).to.match(/^intruso@outro\.example#/);

    // A new mail without references from the same customer is a new conversation of the same contact.
    await send({ from: 'ana@cliente.example', subject: 'Outro assunto', text: 'Nova dúvida', messageId: mid() });
    const fresh = (await messagesOf()).find((m) => m.text === 'Nova dúvida');
    expect(fresh.customerPlatformId).to.not.equal(conversationId);
    const [a, b] = await api.deps.knex('customer_platforms').whereIn('id', [conversationId, fresh.customerPlatformId]).select('customer_id');
    expect(a.customerId).to.equal(b.customerId);
  });

  it('an auto-reply to our reply is one system note, answered by nobody: the loop stops', async () => {
    await send({ from: 'bia@cliente.example', subject: 'Horário', text: 'Qual o horário?', messageId: mid() });
    const [inbound] = await messagesOf();
    const { row } = await agentReply(inbound.customerPlatformId, 'Das 8h as 18h.', 'bia@cliente.example');
    const mailsBefore = api.mailbox.mails.length;

    const auto = { from: 'bia@cliente.example', subject: 'Ausente: Re: Horário', text: 'Estou de férias.', inReplyTo: row.externalId, references: [row.externalId], headers: { 'Auto-Submitted': 'auto-replied' } };
    const autoId = mid();
    await send({ ...auto, messageId: autoId });
    await send({ ...auto, messageId: autoId });
    // A bounce (null sender) naming our reply is a note as well; one naming nothing of ours is dropped.
    await client.sendMail({ envelope: { from: '', to: channel.identifier }, from: 'MAILER-DAEMON@mx.cliente.example', to: channel.identifier, subject: 'Undelivered', text: 'falhou', messageId: mid(), inReplyTo: row.externalId });
    await client.sendMail({ envelope: { from: '', to: channel.identifier }, from: 'MAILER-DAEMON@mx.cliente.example', to: channel.identifier, subject: 'Undelivered', text: 'falhou', messageId: mid() });
    await send({ ...auto, from: 'spam@lista.example', messageId: mid(), inReplyTo: undefined, references: undefined, headers: { Precedence: 'bulk' } });

    const rows = await messagesOf();
    const notes = rows.filter((m) => m.type === 1);
    expect(notes).to.have.length(2);
    expect(notes.every((n) => n.sender === 'system' && n.customerPlatformId === inbound.customerPlatformId)).to.equal(true);
    expect(notes[0].text).to.include('Resposta automática');
    expect(rows.filter((m) => m.sender === 'customer')).to.have.length(1);
    expect(rows.filter((m) => m.sender !== 'customer' && m.type !== 1)).to.have.length(1);
    await sleep(300);
    expect(api.mailbox.mails.length).to.equal(mailsBefore);
  });

  it('each auto-reply mark (Precedence auto_reply/bulk, X-Autoreply, X-Auto-Response-Suppress, a mailer-daemon sender) makes a note, not a customer message', async () => {
    await send({ from: 'caio@cliente.example', subject: 'Prazo', text: 'Qual o prazo?', messageId: mid() });
    const [inbound] = await messagesOf();
    const { row } = await agentReply(inbound.customerPlatformId, 'Cinco dias.', 'caio@cliente.example');
    const marks: [string, Record<string, string>][] = [
      ['caio@cliente.example', { Precedence: 'auto_reply' }],
      ['caio@cliente.example', { Precedence: 'bulk' }],
      ['caio@cliente.example', { 'X-Autoreply': 'yes' }],
      ['caio@cliente.example', { 'X-Auto-Response-Suppress': 'All' }],
      ['MAILER-DAEMON@mx.cliente.example', {}],
    ];
    for (const [from, headers] of marks) await send({ from, subject: 'Resposta automática', text: 'Fora do escritório.', messageId: mid(), inReplyTo: row.externalId, references: [row.externalId], headers });
    const rows = await messagesOf();
    expect(rows.filter((m) => m.type === 1 && m.sender === 'system' && m.customerPlatformId === inbound.customerPlatformId)).to.have.length(marks.length);
    expect(rows.filter((m) => m.sender === 'customer')).to.have.length(1);
  });

  it('drops mail from our own forwarding domain', async () => {
    await send({ from: `outro@${api.config.inboundEmailDomain}`, subject: 'Loop', text: 'de nós para nós', messageId: mid() });
    expect(await messagesOf()).to.have.length(0);
  });
});
