import { Readable } from 'node:stream';
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../../../activities';
import { createLogger } from '../../../../api/logger';
import { createStorage } from '../../../../api/storage/storage';
import { QrLiveSockets, recordSessionQueue } from '../../../../activities/channels/whatsapp/liveSockets';
import { QR_LOGGED_OUT, QR_NOT_CONNECTED, qrMessageId } from '../../../../api/channels/whatsapp/qr/sender';
import { receiveInbound } from '../../../../api/inbound/receiveInbound';
import { loadChannel } from '../../../../api/conversations/queries';
import { sendWhatsapp, whatsappRouteFor } from '../../../../api/channels/whatsapp/sendWhatsapp';
import { startTestApi, type TestApi } from '../../../helpers/api';
import { unique, type TestOperator, type TestWorkspace } from '../../../helpers/factories';
import { delta, makeChannel } from '../../../inbox/factories';
import { makeOwner, messageRow, postAgentMessage, prepareWorker, sendWorkflowResult, until, type WorkerSetup } from '../../helpers';
import { FakeQrSocket } from '../../../fakes/baileys';

const CUSTOMER_JID = '5511987654321@s.whatsapp.net';

/**
 * The QR sender across processes (docs/outbound.md "WhatsApp QR lines"): the line's socket lives in one
 * worker (here a "session worker" whose only queue is its own, holding the fake socket); the api and the
 * main worker hold no socket, so every send, delete, typing indicator and number check that reaches the fake
 * went through the routing to that worker's queue.
 */
describe('WhatsApp QR lines: agent messages, delete, typing and number checks go through the one live socket, on the worker that holds it', function () {
  this.timeout(90_000);
  let api: TestApi;
  let setup: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channelId: number;
  let socket: FakeQrSocket;
  let sessionSockets: QrLiveSockets;
  let stopWorkers: () => Promise<void>;

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('wa-qr-send') });
    setup = await prepareWorker();
    const deps = { knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config };
    const channels = { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 100, busyWaitMs: 50 };
    sessionSockets = new QrLiveSockets(`${api.config.temporalTaskQueue}-whatsapp-session-test`);
    const main = await Worker.create({
      connection: setup.connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle: setup.workflowBundle,
      // The main worker's own registry: it holds no socket.
      activities: createActivities(deps, { channels, whatsappQr: { sockets: new QrLiveSockets(null) } }),
    });
    const session = await Worker.create({ connection: setup.connection, taskQueue: sessionSockets.taskQueue!, activities: createActivities(deps, { channels, whatsappQr: { sockets: sessionSockets } }) });
    const running = Promise.all([main.run(), session.run()]);
    stopWorkers = async () => {
      main.shutdown();
      session.shutdown();
      await running;
    };
  });
  after(async () => {
    await stopWorkers?.();
    await setup?.connection.close();
    await api?.close();
  });

  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    const [row] = await api.deps.knex('channels')
      .insert({ workspaceId: ws.id, platformId: 1, type: 'whatsapp', name: unique('Linha QR'), phone: '5511999990000', status: 'connected', config: JSON.stringify({ provider: 'qr' }) })
      .returning('id');
    channelId = row.id;
    socket = new FakeQrSocket();
  });

  /** What the session activity does when its socket opens: registered in its process, its queue noted for the line. */
  async function connect() {
    sessionSockets.add(channelId, socket).setOpen(true);
    await recordSessionQueue(api.deps.knex, { workspaceId: ws.id, channelId }, sessionSockets.taskQueue);
  }

  /** A customer's message on the line (as the socket's messages.upsert stores it): the conversation to answer. */
  async function customerSays(text: string, externalId = unique('3EB0CLIENTE')) {
    const result = await receiveInbound(api.deps, {
      workspaceId: ws.id,
      channelId,
      identity: { externalId: CUSTOMER_JID, name: 'Maria', phone: '5511987654321' },
      externalId,
      content: delta(text),
      sentAt: new Date(),
    });
    return { conversationId: result.conversationId, callId: result.callId, externalId };
  }

  it('sends text through the live socket once, with the id derived from the idempotency key, and records it as the external id', async () => {
    await connect();
    const { conversationId } = await customerSays('Oi');
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Olá, Maria!') });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    expect(socket.sent).to.have.length(1);
    expect(socket.sent[0]).to.deep.include({ jid: CUSTOMER_JID, content: { text: 'Olá, Maria!' } });
    expect(socket.sent[0].options?.messageId).to.equal(qrMessageId(`balcao-msg-${id}`, 0));
    expect(await messageRow(api, id)).to.include({ deliveryState: 'sent', status: 2, externalId: qrMessageId(`balcao-msg-${id}`, 0) });
  });

  it('a quoted reply passes the quoted message as Baileys wants it (`quoted` with its key and text)', async () => {
    await connect();
    const { conversationId, externalId } = await customerSays('Qual o prazo?');
    const quoted = await api.deps.knex('messages').where({ externalId }).first('id');
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Cinco dias.'), replyTo: quoted.id });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    expect(socket.sent[0].content).to.deep.equal({ text: 'Cinco dias.' });
    expect(socket.sent[0].options?.quoted).to.deep.equal({ key: { remoteJid: CUSTOMER_JID, id: externalId, fromMe: false }, message: { conversation: 'Qual o prazo?' } });
  });

  it('files go as image (with the caption), document (with its name) and a voice note (`ptt: true`), each its own message', async () => {
    await connect();
    const { conversationId } = await customerSays('Manda os arquivos');
    const files = [
      { key: unique('wa-foto'), fileName: 'foto.jpg', mime: 'image/jpeg' },
      { key: unique('wa-doc'), fileName: 'proposta.pdf', mime: 'application/pdf' },
      { key: unique('wa-audio'), fileName: 'audio.ogg', mime: 'audio/ogg' },
    ];
    for (const f of files) {
      await createStorage(api.config).put(f.key, Readable.from(Buffer.from(`bytes de ${f.fileName}`)));
      await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: f.key, fileName: f.fileName, mime: f.mime, size: 10 });
    }
    const id = await postAgentMessage(api, owner, { id: conversationId, content: files.map((f) => ({ file: { ...f, size: 10 } })) });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    const [image, document, audio] = socket.sent.map((s) => s.content as Record<string, unknown>);
    expect(socket.sent).to.have.length(3);
    expect(image).to.deep.include({ mimetype: 'image/jpeg' });
    expect(Buffer.from(image.image as Buffer).toString()).to.equal('bytes de foto.jpg');
    expect(document).to.deep.include({ mimetype: 'application/pdf', fileName: 'proposta.pdf' });
    expect(Buffer.from(document.document as Buffer).toString()).to.equal('bytes de proposta.pdf');
    expect(audio).to.deep.include({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
    expect(socket.sent.map((s) => s.options?.messageId)).to.deep.equal([0, 1, 2].map((i) => qrMessageId(`balcao-msg-${id}`, i)));
  });

  it('not connected: the message stays pending with a visible reason and goes out once when the line connects', async () => {
    const { conversationId } = await customerSays('Oi');
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Assim que conectar') });
    await until(async () => (await messageRow(api, id)).deliveryError === QR_NOT_CONNECTED);
    expect((await messageRow(api, id)).deliveryState).to.equal('pending');
    expect(socket.sent).to.have.length(0);
    await connect();
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    expect(socket.sent.map((s) => s.content)).to.deep.equal([{ text: 'Assim que conectar' }]);
  });

  it("the socket's worker gone (its queue still noted, nobody polls it): after the 30 s schedule-to-start the attempt counts as not connected, and the next round reaches the reconnected socket", async () => {
    const { conversationId } = await customerSays('Oi');
    await recordSessionQueue(api.deps.knex, { workspaceId: ws.id, channelId }, `${api.config.temporalTaskQueue}-whatsapp-session-morto`);
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Depois da queda') });
    await until(async () => (await messageRow(api, id)).deliveryError === QR_NOT_CONNECTED, 45_000);
    expect(socket.sent).to.have.length(0);
    await connect();
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    expect(socket.sent.map((s) => s.content)).to.deep.equal([{ text: 'Depois da queda' }]);
  });

  it('a line that stopped (logged out: disconnected) fails the message at once with the pt-BR reason, nothing sent', async () => {
    const { conversationId } = await customerSays('Oi');
    await api.deps.knex('channels').where({ id: channelId }).update({ status: 'disconnected' });
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Não vai') });
    expect(await sendWorkflowResult(api, id)).to.equal('failed');
    expect(await messageRow(api, id)).to.include({ deliveryState: 'failed', deliveryError: QR_LOGGED_OUT });
    expect(socket.sent).to.have.length(0);
  });

  it('a socket error is retried and the message still goes out exactly once', async () => {
    await connect();
    const { conversationId } = await customerSays('Oi');
    socket.nextSendErrors.push(new Error('Connection Closed'));
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Segunda tentativa') });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    expect(socket.sent).to.have.length(1);
    expect((await messageRow(api, id)).deliveryAttempts).to.equal(2);
  });

  it("delete for everyone sends Baileys' `delete` with our message's key through the socket's worker", async () => {
    await connect();
    const { conversationId } = await customerSays('Oi');
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Errei') });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    const res = await api.request('DELETE', `/api/inbox/messages/${id}`, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(socket.sent[1]).to.deep.equal({ jid: CUSTOMER_JID, content: { delete: { remoteJid: CUSTOMER_JID, fromMe: true, id: qrMessageId(`balcao-msg-${id}`, 0) } }, options: undefined });
    expect((await messageRow(api, id)).isDeleted).to.equal(true);
  });

  it('delete on a line without a live socket answers 503 and keeps the message', async () => {
    const { conversationId, callId } = await customerSays('Oi');
    const [row] = await api.deps.knex('messages')
      .insert({ workspaceId: ws.id, customerPlatformId: conversationId, callId, content: JSON.stringify(delta('Antiga')), text: 'Antiga', type: 0, status: 2, sender: 'operator', operatorId: owner.id, externalId: unique('3EB0ANTIGA') })
      .returning('id');
    const res = await api.request('DELETE', `/api/inbox/messages/${row.id}`, { token: owner.token });
    expect(res.status).to.equal(503);
    expect((await messageRow(api, row.id)).isDeleted).to.equal(false);
  });

  it('the agent typing shows "digitando…": sendPresenceUpdate(composing) for the customer', async () => {
    await connect();
    const { conversationId } = await customerSays('Oi');
    const res = await api.request('POST', '/api/integrations/composing', { token: owner.token, body: { customerPlatformId: conversationId } });
    expect(res.status).to.be.within(200, 204);
    await until(async () => socket.presences.length > 0);
    expect(socket.presences).to.deep.equal([{ type: 'composing', jid: CUSTOMER_JID }]);
  });

  it("sendWhatsapp (the campaigns' entry) sends through the socket where it lives, and elsewhere names the socket worker's queue", async () => {
    await connect();
    const channel = await loadChannel(api.deps.knex, ws.id, channelId);
    const here = { ...api.deps, qrSockets: sessionSockets };
    expect(await whatsappRouteFor(here, channel)).to.equal(null);
    const { externalId } = await sendWhatsapp(here, channel, '5511912340000', delta('Promoção'), 'campanha-1:5511912340000');
    expect(externalId).to.equal(qrMessageId('campanha-1:5511912340000', 0));
    expect(socket.sent.map((s) => [s.jid, s.content])).to.deep.equal([['5511912340000@s.whatsapp.net', { text: 'Promoção' }]]);
    const elsewhere = { ...api.deps, qrSockets: new QrLiveSockets('outro-worker') };
    expect(await whatsappRouteFor(elsewhere, channel)).to.equal(sessionSockets.taskQueue);
    let error: unknown;
    await sendWhatsapp(elsewhere, channel, '5511912340000', delta('Promoção'), 'campanha-1:x').catch((e: unknown) => (error = e));
    expect(error).to.have.property('message', QR_NOT_CONNECTED);
  });

  describe('new outbound message (POST /api/inbox/active-chat)', () => {
    const body = (over: Record<string, unknown> = {}) => ({ workspacePlatformId: channelId, phone: '+55 (11) 98765-4321', name: 'Maria Nova', content: delta('Olá! Aqui é da loja.'), ...over });

    it('checks the number with onWhatsApp, creates contact and conversation under the JID WhatsApp answered, and sends the first message', async () => {
      await connect();
      // WhatsApp answers the account's own JID (here: registered without the extra 9).
      socket.onWhatsAppNumbers.set(CUSTOMER_JID, '551187654321@s.whatsapp.net');
      const res = await api.request('POST', '/api/inbox/active-chat', { token: owner.token, body: body() });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const id = res.body.data.id as number;
      expect(socket.lookups).to.deep.equal([[CUSTOMER_JID]]);
      const cp = await api.deps.knex('customer_platforms').where({ id }).first();
      expect(cp).to.include({ channelId, externalId: '551187654321@s.whatsapp.net', operatorId: owner.id });
      expect(await api.deps.knex('customers').where({ id: cp.customerId }).first()).to.include({ name: 'Maria Nova', phone: '+5511987654321', origin: 'agent' });
      const [message] = await api.deps.knex('messages').where({ customerPlatformId: id });
      expect(await sendWorkflowResult(api, message.id)).to.equal('sent');
      expect(socket.sent.map((s) => [s.jid, s.content])).to.deep.equal([['551187654321@s.whatsapp.net', { text: 'Olá! Aqui é da loja.' }]]);

      // The same number again: the same conversation, a second message.
      const again = await api.request('POST', '/api/inbox/active-chat', { token: owner.token, body: body({ content: delta('Conseguiu ver?') }) });
      expect(again.body.data.id).to.equal(id);
      expect(await api.deps.knex('customers').where({ workspaceId: ws.id })).to.have.length(1);
    });

    it('a number not on WhatsApp: 400 on phone with a clear message, nothing created', async () => {
      await connect();
      const res = await api.request('POST', '/api/inbox/active-chat', { token: owner.token, body: body({ phone: '5511900001111' }) });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.deep.include({ key: 'phone', descriptions: ['Este número não tem WhatsApp.'] });
      expect(await api.deps.knex('customer_platforms').where({ channelId })).to.have.length(0);
    });

    it('a line with no live socket: 400 on the line, nothing created', async () => {
      const res = await api.request('POST', '/api/inbox/active-chat', { token: owner.token, body: body() });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0]).to.deep.include({ key: 'workspacePlatformId', descriptions: ['Nenhuma linha de WhatsApp conectada.'] });
      expect(await api.deps.knex('customer_platforms').where({ channelId })).to.have.length(0);
    });

    it("another workspace's line is a 404; a channel that is not WhatsApp a field error", async () => {
      const other = await makeOwner(api);
      const res = await api.request('POST', '/api/inbox/active-chat', { token: other.owner.token, body: body() });
      expect(res.status).to.equal(404);
      const widget = await makeChannel(api.deps.knex, ws, 'widget');
      const notWa = await api.request('POST', '/api/inbox/active-chat', { token: owner.token, body: body({ workspacePlatformId: widget.id }) });
      expect(notWa.status).to.equal(400);
      expect(notWa.body.errors[0]).to.deep.include({ key: 'workspacePlatformId', descriptions: ['Selecione uma linha de WhatsApp.'] });
    });
  });
});
