import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import type { TestOperator, TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { instagramBatch, messageEvent, MESSAGING_ERRORS, MetaMessagingFake, pageBatch, postMetaWebhook, type FakePage } from '../../fakes/metaMessaging';
import { makeOwner, postAgentMessage, prepareWorker, sendWorkflowResult, until, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../helpers';
import { connectInstagram, connectNewPage, metaApiHooks, type ConnectedPage } from './support';
import { windowDecision } from '../../../api/channels/meta/send';

describe('Messenger and Instagram replies: the delivery path through the Send API', function () {
  this.timeout(90_000);
  const fake = new MetaMessagingFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let page: FakePage;
  let fb: ConnectedPage;
  let psid: string;

  metaApiHooks(
    fake,
    async (a) => {
      api = a;
      worker = await prepareWorker();
    },
    async () => {
      await worker?.connection.close();
    },
  );
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    ({ page, fb, psid } = await connectNewPage(api, owner, fake));
    fake.sent.length = 0;
    fake.nextSendErrors.length = 0;
    fake.attachmentFetches.length = 0;
  });

  const withWorker = (fn: () => Promise<void>, publisher?: Parameters<typeof withChannelWorker>[3]['publisher']) =>
    withChannelWorker(api, worker, fn, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 4 }, publisher });
  const messagesOf = (channelId: number) => api.deps.knex('messages').where({ channelId }).orderBy('id');

  async function conversation(channelId: number, payload: unknown): Promise<{ id: number; messageId: number }> {
    expect((await postMetaWebhook(`${api.url}/api/hooks/meta`, payload, fake.appSecret)).status).to.equal(200);
    await until(async () => (await messagesOf(channelId)).length > 0);
    const [m] = await messagesOf(channelId);
    return { id: m.customerPlatformId, messageId: m.id };
  }
  const messengerConversation = () => conversation(fb.id, pageBatch([{ pageId: page.id, messaging: [messageEvent(psid, page.id, { text: 'Olá' })] }]));
  const ageCustomerMessages = (conversationId: number, hours: number) =>
    api.deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'customer' }).update({ createdAt: new Date(Date.now() - hours * 3600_000) });

  it('a reply within 24 hours reaches the Send API once as a RESPONSE, even after a transient failure; its mid is the external id', async () => {
    const { id } = await messengerConversation();
    fake.nextSendErrors.push(MESSAGING_ERRORS.unavailable);
    await withWorker(async () => {
      const messageId = await postAgentMessage(api, owner, { id, content: delta('Bom dia!') });
      await untilDeliveryState(api, messageId, 'sent');
      expect(await sendWorkflowResult(api, messageId)).to.equal('sent');
    });
    expect(fake.sent).to.have.length(1);
    expect(fake.sent[0]).to.deep.include({ pageId: page.id });
    expect(fake.sent[0].body).to.deep.include({ recipient: { id: psid }, messaging_type: 'RESPONSE', message: { text: 'Bom dia!' } });
    const sent = (await messagesOf(fb.id)).find((m) => m.sender === 'operator');
    expect(sent).to.include({ externalId: fake.sent[0].id, status: 2 });
  });

  it('a rate limit (613) is retried later and sent once', async () => {
    const { id } = await messengerConversation();
    fake.nextSendErrors.push(MESSAGING_ERRORS.rateLimit);
    await withWorker(async () => {
      const messageId = await postAgentMessage(api, owner, { id, content: delta('Oi') });
      expect(await sendWorkflowResult(api, messageId)).to.equal('sent');
    });
    expect(fake.sent).to.have.length(1);
  });

  it('a file goes as an attachment Meta fetches from a signed URL of ours', async () => {
    const { id } = await messengerConversation();
    const upload = new FormData();
    upload.set('file0', new Blob([Buffer.from('%PDF-1.4 teste')], { type: 'application/pdf' }), 'boleto.pdf');
    const up = await fetch(`${api.url}/api/assets/upload`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: upload });
    const { data } = (await up.json()) as { data: { key: string; fileName: string }[] };
    await withWorker(async () => {
      await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: [{ file: { key: data[0].key, fileName: 'boleto.pdf' } }] }), 'sent');
    });
    const attachment = fake.sent[0].body.message!.attachment!;
    expect(attachment.type).to.equal('file');
    expect(attachment.payload.url).to.match(new RegExp(`^${api.config.publicUrl}/api/assets/download/`));
    expect(attachment.payload.url).to.include('sig=');
    // Meta downloaded our signed link while sending and got the file itself.
    expect(fake.sent[0].fetched?.status).to.equal(200);
    expect(fake.sent[0].fetched?.bytes.toString()).to.equal('%PDF-1.4 teste');
  });

  it('a file Meta cannot download from our signed link (PUBLIC_URL unreachable) fails visibly with the reason, nothing sent', async () => {
    const { id } = await messengerConversation();
    const upload = new FormData();
    upload.set('file0', new Blob([Buffer.from('%PDF-1.4 teste')], { type: 'application/pdf' }), 'boleto.pdf');
    const up = await fetch(`${api.url}/api/assets/upload`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: upload });
    const { data } = (await up.json()) as { data: { key: string; fileName: string }[] };
    const base = api.config.publicUrl;
    let messageId = 0;
    api.config.publicUrl = 'http://127.0.0.1:9';
    try {
      await withWorker(async () => {
        messageId = await postAgentMessage(api, owner, { id, content: [{ file: { key: data[0].key, fileName: 'boleto.pdf' } }] });
        await untilDeliveryState(api, messageId, 'failed');
      });
    } finally {
      api.config.publicUrl = base;
    }
    expect(fake.attachmentFetches.map((f) => f.status)).to.deep.equal([0]);
    expect(fake.sent).to.have.length(0);
    const row = await api.deps.knex('messages').where({ id: messageId }).first('delivery_error');
    expect(row.deliveryError).to.equal('O Facebook não conseguiu baixar o arquivo do endereço público deste servidor (PUBLIC_URL). Confira se ele está acessível pela internet e reenvie.');
  });

  it('two files whose second is rate limited (613): the retry sends only what Meta has not accepted, each file once', async () => {
    const { id } = await messengerConversation();
    const upload = new FormData();
    upload.set('file0', new Blob([Buffer.from('%PDF-1.4 um')], { type: 'application/pdf' }), 'um.pdf');
    upload.set('file1', new Blob([Buffer.from('%PDF-1.4 dois')], { type: 'application/pdf' }), 'dois.pdf');
    const up = await fetch(`${api.url}/api/assets/upload`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: upload });
    const { data } = (await up.json()) as { data: { key: string; fileName: string }[] };
    // The first file goes through; the second is refused once.
    fake.nextSendErrors.push(null, MESSAGING_ERRORS.rateLimit);
    let messageId = 0;
    await withWorker(async () => {
      messageId = await postAgentMessage(api, owner, { id, content: [...data.map((f) => ({ file: { key: f.key, fileName: f.fileName } }))] });
      expect(await sendWorkflowResult(api, messageId)).to.equal('sent');
    });
    const parts = fake.sent.map((s) => s.body.message?.text ?? s.body.message?.attachment?.payload.url ?? '');
    expect(parts).to.have.length(2);
    expect(parts[0]).to.include(data[0].key);
    expect(parts[1]).to.include(data[1].key);
    expect(await api.deps.knex('messages').where({ id: messageId }).first('external_id')).to.deep.equal({ externalId: fake.sent[0].id });
  });

  it('after 24 hours without the HUMAN_AGENT permission the reply fails visibly and Meta is not called', async () => {
    const { id } = await messengerConversation();
    await ageCustomerMessages(id, 30);
    await withWorker(async () => {
      await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Oi') }), 'failed');
    });
    const sent = (await messagesOf(fb.id)).find((m) => m.sender === 'operator');
    expect(sent.deliveryError).to.include('janela de 24 horas');
    expect(fake.sent).to.have.length(0);
  });

  it('Meta’s own window refusal (10/2018278) fails the message visibly without retry', async () => {
    const { id } = await messengerConversation();
    fake.nextSendErrors.push(MESSAGING_ERRORS.outsideWindow);
    await withWorker(async () => {
      const messageId = await postAgentMessage(api, owner, { id, content: delta('Oi') });
      expect(await sendWorkflowResult(api, messageId)).to.equal('failed');
    });
    const sent = (await messagesOf(fb.id)).find((m) => m.sender === 'operator');
    expect(sent.deliveryError).to.include('24 horas');
    expect(fake.sent).to.have.length(0);
    expect(fake.nextSendErrors).to.have.length(0);
  });

  it('the window rule: RESPONSE within 24 h, HUMAN_AGENT to 7 days only for a person and with the permission, closed otherwise', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const ago = (h: number) => new Date(now.getTime() - h * 3600_000);
    expect(windowDecision(ago(23), now, { humanAgentTag: false, byPerson: true }).kind).to.equal('response');
    expect(windowDecision(ago(25), now, { humanAgentTag: true, byPerson: true }).kind).to.equal('human_agent');
    expect(windowDecision(ago(25), now, { humanAgentTag: true, byPerson: false }).kind).to.equal('closed');
    expect(windowDecision(ago(25), now, { humanAgentTag: false, byPerson: true }).kind).to.equal('closed');
    expect(windowDecision(ago(24 * 7 + 1), now, { humanAgentTag: true, byPerson: true }).kind).to.equal('closed');
    expect(windowDecision(null, now, { humanAgentTag: true, byPerson: true }).kind).to.equal('closed');
  });

  it('with META_HUMAN_AGENT_TAG, a reply two days later goes with the HUMAN_AGENT tag', async () => {
    const { id } = await messengerConversation();
    await ageCustomerMessages(id, 48);
    api.config.metaHumanAgentTag = true;
    try {
      await withWorker(async () => {
        await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Desculpe a demora') }), 'sent');
      });
    } finally {
      api.config.metaHumanAgentTag = false;
    }
    expect(fake.sent[0].body).to.deep.include({ messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' });
  });

  it('a revoked page token fails the message and disconnects the channel with channel.status for the banner', async () => {
    const { id } = await messengerConversation();
    fake.revokeToken(page.token);
    const events: { topic: string; event: string; data: unknown }[] = [];
    const publish = api.deps.publisher.publish.bind(api.deps.publisher);
    const spy = { ...api.deps.publisher, publish: async <T>(topic: string, event: string, data: T) => (events.push({ topic, event, data }), publish(topic, event, data)) };
    await withWorker(async () => {
      await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Oi') }), 'failed');
    }, spy);
    expect((await api.deps.knex('channels').where({ id: fb.id }).first()).status).to.equal('disconnected');
    expect(events.find((e) => e.event === 'channel.status')).to.deep.equal({ topic: `ws/${ws.id}/all`, event: 'channel.status', data: { id: fb.id, status: 'disconnected', statusReason: 'token_revoked' } });
    const sent = (await messagesOf(fb.id)).find((m) => m.sender === 'operator');
    expect(sent.deliveryError).to.include('expirou ou foi revogado');
  });

  it('connecting the page again after a revocation reconnects the channel', async () => {
    await api.deps.knex('channels').where({ id: fb.id }).update({ status: 'disconnected' });
    const again = await connectPageAgain();
    expect(again.status).to.equal(200);
    expect(again.body.data).to.include({ id: fb.id, status: 'connected' });
  });
  async function connectPageAgain() {
    const { loginSession } = await import('./support');
    return api.request('POST', '/api/integrations/facebook', { token: owner.token, body: { session: await loginSession(api, owner), pageId: page.id } });
  }

  it('Instagram: an agent’s quoted reply sends reply_to.mid; Messenger offers no quoted reply', async () => {
    const ig = await connectInstagram(api, owner, page);
    const igsid = `${psid}5`;
    const { id, messageId } = await conversation(ig.id, instagramBatch([{ accountId: ig.instagramAccountId, messaging: [messageEvent(igsid, ig.instagramAccountId, { text: 'Tem tamanho M?' })] }]));
    const quoted = await api.deps.knex('messages').where({ id: messageId }).first();
    await withWorker(async () => {
      await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Tem sim!'), replyTo: messageId }), 'sent');
    });
    expect(fake.sent[0].body).to.deep.include({ recipient: { id: igsid }, reply_to: { mid: quoted.externalId }, message: { text: 'Tem sim!' } });

    const fbConv = await messengerConversation();
    const res = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: fbConv.id, type: 0, content: delta('x'), replyTo: fbConv.messageId } });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].key).to.equal('replyTo');
  });
});
