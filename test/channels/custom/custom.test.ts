import { expect } from 'chai';
import { signWebhook } from '../../../api/webhooks/secret';
import { allowLoopbackCustomEndpointsForTests } from '../../../api/channels/custom/testing';
import { startTestApi, type TestApi } from '../../helpers/api';
import { makeOperator, unique, type TestOperator, type TestWorkspace } from '../../helpers/factories';
import { delta } from '../../inbox/factories';
import { WebhookReceiver } from '../../fakes/webhookReceiver';
import { makeOwner, messageRow, postAgentMessage, prepareWorker, sendWorkflowResult, until, untilDeliveryState, withChannelWorker, type WorkerSetup } from '../helpers';

interface Signed {
  id?: string;
  timestamp?: number;
  secret?: string;
  signature?: string;
}

describe('Custom API channel: Standard Webhooks both ways, delivered exactly once', function () {
  this.timeout(90_000);
  const receiver = new WebhookReceiver();
  let api: TestApi;
  let worker: WorkerSetup;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channel: { id: number; identifier: string; secret: string; webhookUrl: string; hashIdentifier: string; platformId: number; channelId: string };

  before(async () => {
    allowLoopbackCustomEndpointsForTests(true);
    await receiver.start();
    api = await startTestApi({ temporalTaskQueue: unique('custom-channel') });
    worker = await prepareWorker();
  });
  after(async () => {
    allowLoopbackCustomEndpointsForTests(false);
    await worker?.connection.close();
    await api?.close();
    await receiver.stop();
  });
  beforeEach(async () => {
    await receiver.start();
    receiver.all.length = 0;
    receiver.accepted.length = 0;
    receiver.respond = () => 204;
    ({ ws, owner } = await makeOwner(api));
    const res = await api.request('POST', '/api/integrations/custom', { token: owner.token, body: { description: 'ERP da loja', hashIdentifier: receiver.url } });
    expect(res.status).to.equal(201);
    channel = res.body.data;
    receiver.secret = channel.secret;
  });

  const hookUrl = () => `${api.url}/api/hooks/custom/${channel.identifier}`;
  const messagesOf = () => api.deps.knex('messages').where({ channelId: channel.id }).orderBy('id');

  /** POSTs a body signed as the company would (Standard Webhooks), with overrides to forge each part. */
  async function post(body: unknown, s: Signed = {}): Promise<{ status: number; body: any }> {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const id = s.id ?? `msg_${Math.random().toString(36).slice(2)}`;
    const timestamp = s.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = s.signature ?? signWebhook(s.secret ?? channel.secret, id, timestamp, raw);
    const res = await fetch(hookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
      body: raw,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  const inbound = (over: Record<string, unknown> = {}) => ({ id: unique('ext'), sender: { id: 'cliente-42', name: 'Ana Souza', email: 'ana@exemplo.com.br', phone: '+5511988887777' }, content: 'Olá, preciso de ajuda', ...over });

  const withWorker = (fn: () => Promise<void>, channels = { initialDelayMs: 100, maxDelayMs: 200, maxAttempts: 50 }) => withChannelWorker(api, worker, fn, { channels });

  describe('adding a channel', () => {
    it('answers a generated identifier and a whsec_ secret this once; the secret is sealed and never shown again', async () => {
      expect(channel).to.include({ channelId: 'custom', platformId: 6, description: 'ERP da loja', hashIdentifier: receiver.url, status: 'connected' });
      expect(channel.identifier).to.match(/^[0-9a-f]{32}$/);
      expect(channel.webhookUrl).to.equal(`${api.config.publicUrl}/api/hooks/custom/${channel.identifier}`);
      expect(channel.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const row = await api.deps.knex('channels').where({ id: channel.id }).first();
      expect(JSON.stringify(row)).to.not.include(channel.secret.slice(6));
      const again = await api.request('GET', `/api/integrations/custom/${channel.id}`, { token: owner.token });
      expect(again.status).to.equal(200);
      expect(again.body.data).to.include({ hashIdentifier: receiver.url }).and.not.have.property('secret');
      const list = await api.request('GET', '/api/integrations/channel', { token: owner.token });
      expect(JSON.stringify(list.body)).to.not.include(channel.secret.slice(6));
    });

    it('refuses an endpoint that is not https or points inside (SSRF guard) with a field error, and a missing description', async () => {
      allowLoopbackCustomEndpointsForTests(false);
      try {
        for (const hashIdentifier of ['http://exemplo.com.br/hook', receiver.url, 'https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'https://localhost/x']) {
          const res = await api.request('POST', '/api/integrations/custom', { token: owner.token, body: { description: 'X', hashIdentifier } });
          expect(res.status, hashIdentifier).to.equal(400);
          expect(res.body.errors[0].key, hashIdentifier).to.equal('hashIdentifier');
        }
        const empty = await api.request('POST', '/api/integrations/custom', { token: owner.token, body: {} });
        expect(empty.status).to.equal(400);
        expect(empty.body.errors.map((e: { key: string }) => e.key)).to.include.members(['description', 'hashIdentifier']);
      } finally {
        allowLoopbackCustomEndpointsForTests(true);
      }
      expect(await api.deps.knex('channels').where({ workspaceId: ws.id, type: 'custom' })).to.have.length(1);
    });

    it('is for level 6 and up', async () => {
      const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      const res = await api.request('POST', '/api/integrations/custom', { token: agent.token, body: { description: 'X', hashIdentifier: receiver.url } });
      expect(res.status).to.equal(403);
    });
  });

  describe('inbound messages', () => {
    it('a signed message is stored in a conversation of sender.id with the sender as contact', async () => {
      const res = await post(inbound());
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ received: true, duplicate: false });
      const [m] = await messagesOf();
      expect(m).to.include({ sender: 'customer', text: 'Olá, preciso de ajuda' });
      const cp = await api.deps.knex('customer_platforms').where({ id: m.customerPlatformId }).first();
      expect(cp.externalId).to.equal('cliente-42');
      const c = await api.deps.knex('customers').where({ id: cp.customerId }).first();
      expect(c).to.include({ name: 'Ana Souza', email: 'ana@exemplo.com.br', phone: '+5511988887777' });
    });

    it('Delta ops keep their text inserts; file entries cannot be smuggled in', async () => {
      const res = await post(inbound({ content: [{ insert: 'Pedido ' }, { insert: '123', attributes: { bold: true } }, { insert: '\n' }] }));
      expect(res.status).to.equal(200);
      const [m] = await messagesOf();
      expect(m.text).to.equal('Pedido 123');
      const smuggled = await post(inbound({ content: [{ file: { key: 'outro-workspace/arquivo.pdf', fileName: 'a.pdf' } }] }));
      expect(smuggled.status).to.equal(400);
      expect(await messagesOf()).to.have.length(1);
    });

    it('a bad signature, a wrong secret or missing headers answer 401 and store nothing', async () => {
      expect((await post(inbound(), { secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64') })).status).to.equal(401);
      expect((await post(inbound(), { signature: 'v1,AAAA' })).status).to.equal(401);
      expect((await post(inbound(), { signature: 'v2,' + signWebhook(channel.secret, 'x', 1, '{}').slice(3) })).status).to.equal(401);
      const noHeaders = await fetch(hookUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(inbound()) });
      expect(noHeaders.status).to.equal(401);
      // Signed for another body: the signature covers the exact bytes.
      const body = JSON.stringify(inbound());
      const ts = Math.floor(Date.now() / 1000);
      const tampered = await fetch(hookUrl(), {
        method: 'POST',
        headers: { 'webhook-id': 'a', 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(channel.secret, 'a', ts, body) },
        body: body.replace('ajuda', 'AJUDA'),
      });
      expect(tampered.status).to.equal(401);
      expect(await messagesOf()).to.have.length(0);
      expect(await api.deps.knex('inbound_events').where({ channelId: channel.id })).to.have.length(0);
    });

    it('a timestamp more than 5 minutes away (stale or future) answers 401, even correctly signed', async () => {
      const now = Math.floor(Date.now() / 1000);
      const stale = await post(inbound(), { timestamp: now - 6 * 60 });
      expect(stale.status).to.equal(401);
      expect(stale.body.errors[0].descriptions[0]).to.include('5 minutos');
      expect((await post(inbound(), { timestamp: now + 6 * 60 })).status).to.equal(401);
      expect(await messagesOf()).to.have.length(0);
      expect((await post(inbound(), { timestamp: now - 4 * 60 })).status).to.equal(200);
    });

    it('a replayed request (same id) answers 200 and stores nothing new, also 5 in parallel', async () => {
      const body = inbound();
      const first = await post(body, { id: 'replay-1' });
      expect(first.status).to.equal(200);
      const again = await post(body, { id: 'replay-1' });
      expect(again.status).to.equal(200);
      expect(again.body.data).to.include({ duplicate: true, messageId: first.body.data.messageId });
      const parallel = inbound();
      const answers = await Promise.all(Array.from({ length: 5 }, () => post(parallel)));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect(await messagesOf()).to.have.length(2);
    });

    it('a bad body answers 400 with every failing field, after the signature', async () => {
      const res = await post({ sender: { name: 5, email: 'não-é-email' }, content: 42, replyTo: 9 });
      expect(res.status).to.equal(400);
      const keys = res.body.errors.map((e: { key: string }) => e.key);
      expect(keys).to.include.members(['id', 'sender.id', 'sender.name', 'sender.email', 'content', 'replyTo']);
      expect(res.body.errors.find((e: { key: string }) => e.key === 'sender.email').descriptions[0]).to.equal('E-mail inválido.');
      expect((await post('{nope')).status).to.equal(400);
      expect((await post([1, 2])).status).to.equal(400);
      // Unsigned garbage is a 401, not a parse error.
      const unsigned = await fetch(hookUrl(), { method: 'POST', headers: { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AA==' }, body: '{nope' });
      expect(unsigned.status).to.equal(401);
      expect(await messagesOf()).to.have.length(0);
    });

    it('replyTo names an earlier message of the conversation; an unknown identifier is a 404', async () => {
      await post(inbound({ id: 'first' }));
      await post(inbound({ id: 'second', replyTo: 'first' }));
      const [a, b] = await messagesOf();
      expect(b.replyToId).to.equal(a.id);
      const res = await fetch(`${api.url}/api/hooks/custom/${'0'.repeat(32)}`, { method: 'POST', body: '{}' });
      expect(res.status).to.equal(404);
    });
  });

  describe('agent messages to the endpoint', () => {
    async function conversation(): Promise<number> {
      const res = await post(inbound());
      return res.body.data.conversationId;
    }

    it('are POSTed signed with the channel secret, webhook-id = the idempotency key, and the log shows them sent', async () => {
      const id = await conversation();
      let messageId = 0;
      await withWorker(async () => {
        messageId = await postAgentMessage(api, owner, { id, content: delta('Bom dia, Ana!') });
        await untilDeliveryState(api, messageId, 'sent');
      });
      expect(receiver.accepted).to.have.length(1);
      const hook = receiver.accepted[0];
      expect(hook.signatureValid).to.equal(true);
      expect(hook.id).to.equal(`balcao-msg-${messageId}`);
      expect(hook.json).to.deep.include({ type: 'message.created' });
      expect(hook.json.data).to.deep.include({ id: hook.id, messageId, conversationId: id, recipient: { id: 'cliente-42' }, text: 'Bom dia, Ana!' });
      expect(hook.json.data.operator).to.include({ id: owner.id });
      const sent = await messageRow(api, messageId);
      expect(sent).to.include({ externalId: hook.id, status: 2 });
      const log = await api.request('GET', `/api/integrations/custom/${channel.id}/deliveries`, { token: owner.token });
      expect(log.status).to.equal(200);
      expect(log.body.data[0]).to.include({ messageId, webhookId: hook.id, state: 'sent', attempts: 1, error: null });
    });

    it('are retried with backoff while the endpoint is down and delivered exactly once when it comes back', async () => {
      const id = await conversation();
      receiver.respond = () => 503;
      let messageId = 0;
      await withWorker(async () => {
        messageId = await postAgentMessage(api, owner, { id, content: delta('Seu pedido saiu') });
        await until(async () => receiver.all.length >= 2);
        await receiver.stop();
        await until(async () => (await messageRow(api, messageId)).deliveryAttempts >= 4);
        const log = await api.request('GET', `/api/integrations/custom/${channel.id}/deliveries`, { token: owner.token });
        expect(log.body.data[0]).to.include({ messageId, state: 'pending' });
        expect(log.body.data[0].error).to.be.a('string').with.length.greaterThan(0);
        receiver.respond = () => 200;
        await receiver.start();
        await untilDeliveryState(api, messageId, 'sent');
        expect(await sendWorkflowResult(api, messageId)).to.equal('sent');
      });
      expect(receiver.all.length).to.be.at.least(3);
      expect(receiver.accepted).to.have.length(1);
      expect(new Set(receiver.all.map((h) => h.id))).to.deep.equal(new Set([`balcao-msg-${messageId}`]));
      expect(receiver.all.every((h) => h.signatureValid)).to.equal(true);
      const row = await messageRow(api, messageId);
      expect(row).to.include({ deliveryState: 'sent', deliveryError: null });
      expect(row.deliveryAttempts).to.be.at.least(4);
    });

    it('a 4xx answer fails the message at once with the reason, no retry', async () => {
      const id = await conversation();
      receiver.respond = () => 422;
      let messageId = 0;
      await withWorker(async () => {
        messageId = await postAgentMessage(api, owner, { id, content: delta('Oi') });
        await untilDeliveryState(api, messageId, 'failed');
        expect(await sendWorkflowResult(api, messageId)).to.equal('failed');
      });
      expect(receiver.all).to.have.length(1);
      const row = await messageRow(api, messageId);
      expect(row.deliveryError).to.equal('O endpoint do canal respondeu HTTP 422.');
    });
  });
});
