import { expect } from 'chai';
import { STORAGE_BUDGETS } from '../../../api/assets/storageBudgets';
import type { TestApi } from '../../helpers/api';
import { unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { GRAPH_ERRORS, MetaGraphFake, messagesWebhook, signBody, statusWebhook } from '../../fakes/metaGraph';
import { makeOwner, postAgentMessage, sendWorkflowResult, until, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../helpers';
import { addCloudLine, cloudHookUrl, deliverCloudMessages, postCloudWebhook, startCloudApi, stopCloudApi, withQuickWorker, type CloudLine } from './support';

describe('WhatsApp Cloud API lines: signed webhooks in, agent replies out through the Graph API', function () {
  this.timeout(90_000);
  const graph = new MetaGraphFake();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let line: CloudLine;
  let token: string;
  const appSecret = 'app-secret-de-teste';
  const customer = { waId: '5511987654321', name: 'Maria Cliente' };

  before(async () => ({ api, worker } = await startCloudApi(graph, 'wa-cloud')));
  after(() => stopCloudApi(graph, api, worker));
  beforeEach(async () => {
    ({ ws, owner } = await makeOwner(api));
    ({ line, token } = await addCloudLine(api, graph, owner, { appSecret }));
  });

  const hookUrl = () => cloudHookUrl(api, line);
  const deliver = (messages: Record<string, unknown>[]) => deliverCloudMessages(api, line, appSecret, customer, messages);
  const messagesOf = () => api.deps.knex('messages').where({ channelId: line.id }).orderBy('id');

  const withWorker = (fn: () => Promise<void>) => withQuickWorker(api, worker, fn, 4);

  describe('adding a line', () => {
    it('answers the webhook URL and verify token, keeps the secrets sealed and never returns them', async () => {
      expect(line).to.include({ channelId: 'whatsapp', provider: 'cloud', status: 'connected', phone: '5511912345678' });
      expect(line.webhookUrl).to.equal(`${api.config.publicUrl}/api/hooks/whatsapp/${line.identifier}`);
      expect(line.verifyToken).to.be.a('string').with.length.greaterThan(20);
      expect(JSON.stringify(line)).to.not.include(token).and.not.include(appSecret);
      const row = await api.deps.knex('channels').where({ id: line.id }).first();
      expect(JSON.stringify(row.config)).to.not.include(token).and.not.include(appSecret);
      const list = await api.request('GET', '/api/integrations/channel', { token: owner.token });
      expect(JSON.stringify(list.body)).to.not.include(token).and.not.include(appSecret);
    });

    it('refuses a phone without DDI, DDD and the extra 9, and a Cloud line without its Meta fields, all at once', async () => {
      const res = await api.request('POST', '/api/integrations/whatsapp', { token: owner.token, body: { name: '', phone: '+55 (11) 1234-5678', provider: 'cloud' } });
      expect(res.status).to.equal(400);
      const byKey = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
      expect(byKey.phone).to.equal('Número inválido. O número precisa incluir: DDI, DDD e o 9 extra');
      expect(Object.keys(byKey)).to.include.members(['name', 'phone', 'phoneNumberId', 'businessAccountId', 'accessToken', 'appSecret']);
    });
  });

  describe('verification handshake', () => {
    it('echoes hub.challenge for the right verify token and answers 403 for a wrong one', async () => {
      const ok = await fetch(`${hookUrl()}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(line.verifyToken)}&hub.challenge=1158201444`);
      expect(ok.status).to.equal(200);
      expect(await ok.text()).to.equal('1158201444');
      const wrong = await fetch(`${hookUrl()}?hub.mode=subscribe&hub.verify_token=errado&hub.challenge=1`);
      expect(wrong.status).to.equal(403);
    });
  });

  describe('signatures', () => {
    it('a forged or missing X-Hub-Signature-256 answers 401 and stores nothing', async () => {
      const payload = messagesWebhook(line, customer, [{ type: 'text', text: { body: 'forjada' } }]);
      expect((await postCloudWebhook(api, hookUrl(), payload, null)).status).to.equal(401);
      expect((await postCloudWebhook(api, hookUrl(), payload, 'outro-segredo')).status).to.equal(401);
      expect((await postCloudWebhook(api, hookUrl(), payload, null, 'sha256=zz')).status).to.equal(401);
      expect(await messagesOf()).to.have.length(0);
      expect(await api.deps.knex('inbound_events').where({ channelId: line.id })).to.have.length(0);
    });

    it('a body that is not JSON but is signed is still checked first (bad signature → 401, not a parse error)', async () => {
      const res = await fetch(hookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' }, body: '{nope' });
      expect(res.status).to.equal(401);
    });
  });

  describe('inbound messages', () => {
    it('stores text as a customer message in a conversation of the WhatsApp number', async () => {
      expect((await deliver([{ type: 'text', text: { body: 'Oi, tudo bem?' } }])).status).to.equal(200);
      const [m] = await messagesOf();
      expect(m).to.include({ sender: 'customer', text: 'Oi, tudo bem?' });
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      expect(cp.externalId).to.equal(customer.waId);
      const c = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      expect(c).to.include({ name: 'Maria Cliente', phone: `+${customer.waId}` });
    });

    for (const [kind, mime, extra] of [
      ['image', 'image/jpeg', { caption: 'foto do produto' }],
      ['audio', 'audio/ogg', { voice: true }],
      ['video', 'video/mp4', {}],
      ['document', 'application/pdf', { filename: 'boleto.pdf' }],
      ['sticker', 'image/webp', { animated: false }],
    ] as const) {
      it(`downloads ${kind} media through the Graph media endpoints into our storage`, async () => {
        const bytes = Buffer.from(`${kind}-bytes-${Math.random()}`);
        const id = graph.addMedia(bytes, mime);
        expect((await deliver([{ type: kind, [kind]: { id, mime_type: mime, sha256: 'x', ...extra } }])).status).to.equal(200);
        const [m] = await messagesOf();
        expect(m.isMedia).to.equal(true);
        const file = (m.content as { file?: { key: string; mime: string; size: number; fileName: string } }[])[0].file!;
        expect(file).to.include({ mime, size: bytes.length });
        if (kind === 'document') expect(file.fileName).to.equal('boleto.pdf');
        if (kind === 'image') expect(m.text).to.include('foto do produto');
        const stored = await api.deps.knex('stored_files').where({ key: file.key }).first();
        expect(stored).to.include({ workspaceId: ws.id, mime });
      });
    }

    it('media over 16 MB is refused with a visible note instead of the file', async () => {
      const id = graph.addMedia(Buffer.from('pequeno'), 'video/mp4', 16 * 1024 * 1024 + 1);
      expect((await deliver([{ type: 'video', video: { id, mime_type: 'video/mp4' } }])).status).to.equal(200);
      const [m] = await messagesOf();
      expect(m.isMedia).to.equal(false);
      expect(m.text).to.equal('Mídia não recebida: o arquivo tem mais de 16 MB.');
    });

    it('media past the workspace storage budget is not kept: the note says why', async () => {
      await api.deps.knex('stored_files').insert({ workspaceId: ws.id, key: unique('cheio').replace(/[^A-Za-z0-9_-]/g, ''), fileName: 'antigo.bin', mime: 'application/octet-stream', size: STORAGE_BUDGETS.workspaceTotal - 3 });
      const id = graph.addMedia(Buffer.from('não cabe mais'), 'application/pdf');
      expect((await deliver([{ type: 'document', document: { id, mime_type: 'application/pdf', filename: 'contrato.pdf' } }])).status).to.equal(200);
      const [m] = await messagesOf();
      expect(m.isMedia).to.equal(false);
      expect(m.text).to.equal('Arquivo "contrato.pdf" não recebido: o espaço para arquivos deste workspace (10 GB) está cheio.');
    });

    it('a location arrives as text with a map link', async () => {
      await deliver([{ type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Loja Centro', address: 'Rua A, 1' } }]);
      const [m] = await messagesOf();
      expect(m.text).to.include('Loja Centro — Rua A, 1').and.include('https://maps.google.com/?q=-23.55,-46.63');
    });

    it('a reply carries context.id and is stored as a reply to the quoted message', async () => {
      const first = messagesWebhook(line, customer, [{ type: 'text', text: { body: 'primeira' } }]);
      await postCloudWebhook(api, hookUrl(), first, appSecret);
      const quoted = (first.entry[0].changes[0].value.messages[0] as { id: string }).id;
      await deliver([{ type: 'text', text: { body: 'respondendo' }, context: { from: customer.waId, id: quoted } }]);
      const [a, b] = await messagesOf();
      expect(b.replyToId).to.equal(a.id);
    });

    it('a stored body whose processing never finished (the api died after answering) is processed by the sweep', async () => {
      const { sweepStoredHooks } = await import('../../../api/channels/hooks/store');
      const body = messagesWebhook(line, customer, [{ type: 'text', text: { body: 'ficou para trás' } }]);
      const wamid = (body.entry[0].changes[0].value.messages[0] as { id: string }).id;
      await api.deps.knex('hook_events').insert({ source: 'whatsapp', object: 'whatsapp_business_account', payload: JSON.stringify({ channelIds: [line.id], payload: { body, own: line.id } }) });
      await sweepStoredHooks(api.deps);
      const [m] = await messagesOf();
      expect(m).to.include({ externalId: wamid, text: 'ficou para trás', sender: 'customer' });
      expect(await api.deps.knex('hook_events').whereRaw("payload::text LIKE ?", [`%${wamid}%`]).whereNull('processed_at')).to.have.length(0);
    });

    it('answers 200 once the body is stored, before processing it: a held messages table does not hold the answer', async () => {
      const body = messagesWebhook(line, customer, [{ type: 'text', text: { body: 'guardada primeiro' } }]);
      const wamid = (body.entry[0].changes[0].value.messages[0] as { id: string }).id;
      const storedRow = () => api.deps.knex('hook_events').where({ source: 'whatsapp' }).whereRaw('payload::text LIKE ?', [`%${wamid}%`]).first('id', 'processed_at');
      // Processing reads and writes messages; storing and answering do not. Answering after processing would wait here until the fetch gives up.
      const hold = await api.deps.knex.transaction();
      try {
        await hold.raw('lock table messages in access exclusive mode');
        const raw = JSON.stringify(body);
        const res = await fetch(hookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, appSecret) }, body: raw, signal: AbortSignal.timeout(10_000) });
        expect(res.status).to.equal(200);
        expect(await storedRow()).to.include({ processedAt: null });
      } finally {
        await hold.rollback();
      }
      await until(async () => (await messagesOf()).length === 1);
      expect((await messagesOf())[0]).to.include({ externalId: wamid, text: 'guardada primeiro' });
      await until(async () => (await storedRow())?.processedAt != null);
    });

    it('10 parallel deliveries of the same webhook store one message', async () => {
      const payload = messagesWebhook(line, customer, [{ type: 'text', text: { body: 'uma vez só' } }]);
      const answers = await Promise.all(Array.from({ length: 10 }, () => postCloudWebhook(api, hookUrl(), payload, appSecret)));
      expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
      expect(await messagesOf()).to.have.length(1);
      expect(await api.deps.knex('customer_platforms').where({ channelId: line.id })).to.have.length(1);
    });
  });

  describe('agent replies and statuses', () => {
    async function conversation(): Promise<number> {
      await deliver([{ type: 'text', text: { body: 'Olá' } }]);
      const [m] = await messagesOf();
      return m.customerPlatformId;
    }

    it('an agent reply reaches the Graph API exactly once even when the first attempt fails transiently', async () => {
      const id = await conversation();
      graph.nextSendErrors.push(GRAPH_ERRORS.serviceUnavailable);
      await withWorker(async () => {
        const messageId = await postAgentMessage(api, owner, { id, content: delta('Bom dia!') });
        await untilDeliveryState(api, messageId, 'sent');
        expect(await sendWorkflowResult(api, messageId)).to.equal('sent');
      });
      expect(graph.sent).to.have.length(1);
      expect(graph.sent[0]).to.deep.include({ phoneNumberId: line.phoneNumberId });
      expect(graph.sent[0].body).to.deep.include({ messaging_product: 'whatsapp', to: customer.waId, type: 'text', text: { preview_url: false, body: 'Bom dia!' } });
      const sent = (await messagesOf()).find((m) => m.sender === 'operator');
      expect(sent).to.include({ externalId: graph.sent[0].id, status: 2 });
    });

    it('a quoted reply sends context.message_id', async () => {
      const id = await conversation();
      const [quoted] = await messagesOf();
      await withWorker(async () => {
        await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Sim'), replyTo: quoted.id }), 'sent');
      });
      expect(graph.sent[0].body.context).to.deep.equal({ message_id: quoted.externalId });
    });

    it('statuses move the icons forward (delivered, read; a late sent does not go back) and failed shows its reason', async () => {
      const id = await conversation();
      await withWorker(async () => {
        await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Oi') }), 'sent');
      });
      const wamid = graph.sent[0].id;
      const row = () => api.deps.knex('messages').where({ channelId: line.id, externalId: wamid }).first();
      await postCloudWebhook(api, hookUrl(), statusWebhook(line, customer.waId, [{ id: wamid, status: 'delivered' }]), appSecret);
      expect((await row()).status).to.equal(3);
      await postCloudWebhook(api, hookUrl(), statusWebhook(line, customer.waId, [{ id: wamid, status: 'read' }]), appSecret);
      expect((await row()).status).to.equal(4);
      await postCloudWebhook(api, hookUrl(), statusWebhook(line, customer.waId, [{ id: wamid, status: 'sent' }]), appSecret);
      expect((await row()).status).to.equal(4);
      await postCloudWebhook(api, hookUrl(), statusWebhook(line, customer.waId, [{ id: wamid, status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Message Undeliverable.' } }] }]), appSecret);
      expect(await row()).to.include({ deliveryState: 'failed' });
      expect((await row()).deliveryError).to.include('Message Undeliverable.').and.include('131026');
    });

    it('outside the 24-hour window the send fails visibly with the reason (131047), no retry', async () => {
      const id = await conversation();
      graph.nextSendErrors.push(GRAPH_ERRORS.reEngagement);
      await withWorker(async () => {
        await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Oi') }), 'failed');
      });
      const sent = (await messagesOf()).find((m) => m.sender === 'operator');
      expect(sent.deliveryError).to.include('24 horas');
      expect(graph.sent).to.have.length(0);
    });

    it('an expired token fails the message and disconnects the line, announced with channel.status', async () => {
      const id = await conversation();
      graph.revokeToken(token);
      const events: { topic: string; event: string; data: unknown }[] = [];
      const publish = api.deps.publisher.publish.bind(api.deps.publisher);
      const spy = { ...api.deps.publisher, publish: async <T>(topic: string, event: string, data: T) => (events.push({ topic, event, data }), publish(topic, event, data)) };
      await withChannelWorker(api, worker, async () => {
        await untilDeliveryState(api, await postAgentMessage(api, owner, { id, content: delta('Oi') }), 'failed');
      }, { channels: { initialDelayMs: 100, maxDelayMs: 200 }, publisher: spy });
      expect((await api.deps.knex('channels').where({ id: line.id }).first()).status).to.equal('disconnected');
      expect(events.find((e) => e.event === 'channel.status')).to.deep.equal({ topic: `ws/${ws.id}/all`, event: 'channel.status', data: { id: line.id, status: 'disconnected', statusReason: 'token_revoked' } });
      const sent = (await messagesOf()).find((m) => m.sender === 'operator');
      expect(sent.deliveryError).to.include('token de acesso');
    });
  });
});
