import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { createLogger } from '../../../api/logger';
import { workflowIds } from '../../../workflows/ids';
import { startChannelSend } from '../../../api/channels/outbound/startChannelSend';
import { loadChannel } from '../../../api/conversations/queries';
import { sendWhatsapp, whatsappRouteFor } from '../../../api/channels/whatsapp/sendWhatsapp';
import { startTestApi, type TestApi } from '../../helpers/api';
import { unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { upload } from '../../assets/helpers';
import { GRAPH_ERRORS, MetaGraphFake } from '../../fakes/metaGraph';
import { act, makeBot, path } from '../../bots/support';
import { makeOwner, messageRow, postAgentMessage, prepareWorker, sendWorkflowResult, until, type WorkerSetup } from '../helpers';
import { addCloudLine, deliverCloudMessages, type CloudLine } from './support';

/**
 * WhatsApp Cloud lines beyond the plain reply (docs/channels/whatsapp.md): typing indicator, no delete,
 * the new outbound message, and bot replies through the outbound delivery path, all against the Meta fake.
 */
describe('WhatsApp Cloud lines: typing indicator, no delete, new outbound message and bot replies through the delivery path', function () {
  this.timeout(90_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let setup: WorkerSetup;
  let stopWorker: () => Promise<void>;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let line: CloudLine;
  const appSecret = 'segredo-do-app';
  const customer = { waId: '5511987654321', name: 'Maria Cliente' };

  before(async () => {
    await graph.start();
    api = await startTestApi({ temporalTaskQueue: unique('wa-cloud-out'), metaGraphUrl: graph.url });
    setup = await prepareWorker();
    // The worker's activities can start workflows (a bot reply's channel-send), as the worker process's can.
    const worker = await Worker.create({
      connection: setup.connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle: setup.workflowBundle,
      activities: createActivities(
        { knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config, temporal: api.deps.temporal },
        { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 4 } },
      ),
    });
    const running = worker.run();
    stopWorker = async () => {
      worker.shutdown();
      await running;
    };
  });
  after(async () => {
    await stopWorker?.();
    await setup?.connection.close();
    await api?.close();
    await graph.stop();
  });
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    ({ line } = await addCloudLine(api, graph, owner, { appSecret }));
  });

  const deliver = (messages: Record<string, unknown>[]) => deliverCloudMessages(api, line, appSecret, customer, messages);
  const sentTo = () => graph.sent.filter((s) => s.phoneNumberId === line.phoneNumberId);

  async function customerConversation(text: string): Promise<{ conversationId: number; wamid: string }> {
    expect((await deliver([{ type: 'text', text: { body: text } }])).status).to.equal(200);
    const m = await api.deps.knex('messages').where({ channelId: line.id, sender: 'customer' }).orderBy('id', 'desc').first();
    return { conversationId: m.customerPlatformId, wamid: m.externalId };
  }

  it('files: a recorded voice note (Ogg/Opus) goes as audio with voice: true, a PDF as a document with its name and the caption', async () => {
    const { conversationId } = await customerConversation('Pode mandar o áudio?');
    // An Ogg page whose first packet is OpusHead: what the inbox stores for a recorded note (docs/voice-notes.md).
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.from([0, 2]), Buffer.alloc(8), Buffer.alloc(4, 1), Buffer.alloc(4), Buffer.alloc(4), Buffer.from([1, 19]), Buffer.from('OpusHead'), Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
    const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const uploaded = await upload(api, owner.token, [{ name: 'record.ogg', bytes: ogg, type: 'audio/ogg' }]);
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);
    expect(uploaded.body.data[0].mime).to.match(/^audio\/ogg/);
    await postAgentMessage(api, owner, { id: conversationId, content: [{ file: uploaded.body.data[0] }] });
    await until(async () => sentTo().length === 1);
    expect(sentTo()[0].body).to.deep.include({ type: 'audio' });
    expect(sentTo()[0].body.audio).to.include({ voice: true });

    const doc = await upload(api, owner.token, [{ name: 'orcamento.pdf', bytes: pdf, type: 'application/pdf' }]);
    expect(doc.status, JSON.stringify(doc.body)).to.equal(201);
    await postAgentMessage(api, owner, { id: conversationId, content: [{ file: doc.body.data[0] }] });
    await until(async () => sentTo().length === 2);
    expect(sentTo()[1].body).to.deep.include({ type: 'document' });
    expect(sentTo()[1].body.document).to.include({ filename: 'orcamento.pdf' });
    expect(sentTo()[1].body.document).to.not.have.property('voice');
  });

  it('two files, the second refused with a rate limit (130429): the retry sends only the second, each file reaches the customer once', async () => {
    const { conversationId } = await customerConversation('Manda os dois orçamentos?');
    const pdf = (n: number) => Buffer.from(`%PDF-1.4\n%âãÏÓ\n${n} 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
    const files = await upload(api, owner.token, [
      { name: 'primeiro.pdf', bytes: pdf(1), type: 'application/pdf' },
      { name: 'segundo.pdf', bytes: pdf(2), type: 'application/pdf' },
    ]);
    expect(files.status, JSON.stringify(files.body)).to.equal(201);
    // Meta accepts the first file, then answers 130429 to the second; the next attempt goes through.
    graph.nextSendErrors.push(null, GRAPH_ERRORS.rateLimit);
    const id = await postAgentMessage(api, owner, { id: conversationId, content: [{ file: files.body.data[0] }, { file: files.body.data[1] }] });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    const names = sentTo().map((s) => (s.body.document as { filename: string }).filename);
    expect(names).to.deep.equal(['primeiro.pdf', 'segundo.pdf']);
    expect((await messageRow(api, id)).externalId).to.equal(sentTo()[0].id);
  });

  it('typing: marks the last received message read with typing_indicator text (Meta has no bare typing call)', async () => {
    await customerConversation('Primeira');
    const { conversationId, wamid } = await customerConversation('Segunda');
    const res = await api.request('POST', '/api/integrations/composing', { token: owner.token, body: { customerPlatformId: conversationId } });
    expect(res.status).to.be.within(200, 204);
    await until(async () => graph.reads.length > 0);
    expect(graph.reads).to.deep.equal([{ phoneNumberId: line.phoneNumberId, messageId: wamid, typingIndicator: 'text' }]);
  });

  it('delete for everyone is not offered on a Cloud line: 400 and the message stays', async () => {
    const { conversationId } = await customerConversation('Oi');
    const id = await postAgentMessage(api, owner, { id: conversationId, content: delta('Olá') });
    expect(await sendWorkflowResult(api, id)).to.equal('sent');
    const res = await api.request('DELETE', `/api/inbox/messages/${id}`, { token: owner.token });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].descriptions).to.deep.equal(['Não é possível apagar mensagens neste canal.']);
    expect((await messageRow(api, id)).isDeleted).to.equal(false);
  });

  it('new outbound message: free text is refused on a Cloud line (Meta answers 131047 outside the window), nothing stored or sent; templates: activeChat.test.ts', async () => {
    const res = await api.request('POST', '/api/inbox/active-chat', {
      token: owner.token,
      body: { workspacePlatformId: line.id, phone: '+55 (21) 99876-5432', name: 'João', content: delta('Olá, João!') },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.errors[0]).to.include({ key: 'content' });
    expect(await api.deps.knex('customer_platforms').where({ channelId: line.id })).to.have.length(0);
    expect(sentTo()).to.have.length(0);
  });

  it("sendWhatsapp (the campaigns' entry) sends to a wa_id on a Cloud line from any process, no route needed", async () => {
    const channel = await loadChannel(api.deps.knex, ws.id, line.id);
    expect(await whatsappRouteFor(api.deps, channel)).to.equal(null);
    const { externalId } = await sendWhatsapp(api.deps, channel, '5511912340000', delta('Promoção de hoje'), 'campanha-1:5511912340000');
    expect(sentTo().map((s) => [s.body.to, (s.body.text as { body: string }).body, s.id])).to.deep.equal([['5511912340000', 'Promoção de hoje', externalId]]);
  });

  it('a bot reply reaches the Graph API exactly once, through the channel-send workflow with its idempotency key', async () => {
    await makeBot(api.deps.knex, ws, { channels: [line.id], paths: [path('Início', [act.message('Olá! Sou o assistente da loja.')])] });
    const { conversationId } = await customerConversation('Oi, bot');
    let bot: { id: number; deliveryState: string } | undefined;
    await until(async () => {
      bot = await api.deps.knex('messages').where({ customerPlatformId: conversationId, type: 3 }).first('id', 'delivery_state');
      return !!bot;
    });
    expect(await sendWorkflowResult(api, bot!.id)).to.equal('sent');
    // A retried bot step (or the worker's start-up reconcile) starts the delivery again: no second send.
    await startChannelSend(api.deps, bot!.id, { replace: true });
    const client = await api.deps.temporal.client();
    expect(await client.workflow.getHandle(workflowIds.channelSend(bot!.id)).result()).to.equal('sent');
    const texts = sentTo().filter((s) => s.body.type === 'text').map((s) => (s.body.text as { body: string }).body);
    expect(texts).to.deep.equal(['Olá! Sou o assistente da loja.']);
    const row = await messageRow(api, bot!.id);
    expect(row).to.include({ deliveryState: 'sent', status: 2, externalId: sentTo()[0].id });
  });
});
