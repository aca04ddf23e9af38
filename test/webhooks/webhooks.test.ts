import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { inboundMessage, makeChannel, type TestChannel } from '../inbox/factories';
import { verifySignature, WebhookReceiver } from '../fakes/webhookReceiver';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const ALL_ON = { 'message:received': true, 'session:status:changed': true, 'person:changed': true };

describe('Outbound webhooks: settings, signed deliveries, retries', function () {
  this.timeout(90_000);
  let api: TestApi;
  let connection: NativeConnection;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let ws: TestWorkspace;
  let master: TestOperator;
  let channel: TestChannel;
  const receiver = new WebhookReceiver();

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('webhooks') });
    [connection, workflowBundle] = await Promise.all([testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
    await connection?.close();
    await api?.close();
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    channel = await makeChannel(api.deps.knex, ws);
    receiver.all.length = 0;
    receiver.accepted.length = 0;
    receiver.respond = () => 204;
    await receiver.start();
  });

  /** A worker like production's, but allowed to reach the loopback receiver and retrying within a second. */
  async function withWorker(fn: () => Promise<void>): Promise<void> {
    const worker = await Worker.create({
      connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle,
      activities: createActivities(
        { knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent') },
        { webhooks: { allowLoopbackForTests: true, timeoutMs: 10_000, initialDelayMs: 200, maxDelayMs: 800, orderWaitMs: 50, maxAttempts: 100 } },
      ),
    });
    await worker.runUntil(fn());
  }

  /**
   * Saves through the API (which refuses loopback, as in production) and then points the stored row at the
   * loopback receiver: the only step the API itself would not allow.
   */
  async function configureReceiver(subscriptions: Record<string, boolean> = ALL_ON): Promise<string> {
    const saved = await api.request('PUT', '/api/webhook', { token: master.token, body: { webhook: 'hooks.example.test/balcao', email: 'ti@exemplo.com.br', subscriptions } });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    await api.deps.knex('webhooks').where({ id: saved.body.data.id }).update({ url: receiver.url });
    const shown = await api.request('GET', '/api/webhook', { token: master.token });
    receiver.secret = shown.body.data.secret;
    return shown.body.data.secret;
  }

  const deliveries = () => api.deps.knex('webhook_deliveries').where({ workspaceId: ws.id }).orderBy('id');

  it('stores the URL with https:// added, generates a whsec_ secret once, and regenerates it on request', async () => {
    const first = await api.request('PUT', '/api/webhook', { token: master.token, body: { webhook: 'hooks.example.test/in', subscriptions: { 'message:received': true } } });
    expect(first.status).to.equal(200);
    expect(first.body.data).to.include({ webhook: 'https://hooks.example.test/in', email: '' });
    expect(first.body.data.subscriptions).to.deep.equal({ 'message:received': true, 'session:status:changed': false, 'person:changed': false, 'csat:received': false });
    expect(first.body.data.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const second = await api.request('PUT', '/api/webhook', { token: master.token, body: { webhook: 'https://hooks.example.test/outro', email: 'ti@exemplo.com.br', subscriptions: { 'person:changed': true } } });
    expect(second.body.data.secret).to.equal(first.body.data.secret);
    expect(second.body.data.id).to.equal(first.body.data.id);
    const got = await api.request('GET', '/api/webhook', { token: master.token });
    expect(got.body.data).to.include({ webhook: 'https://hooks.example.test/outro', email: 'ti@exemplo.com.br', secret: first.body.data.secret });
    expect(got.body.data.subscriptions['person:changed']).to.equal(true);

    const regenerated = await api.request('POST', '/api/webhook/secret', { token: master.token });
    expect(regenerated.status).to.equal(200);
    expect(regenerated.body.data.secret).to.match(/^whsec_/).and.not.equal(first.body.data.secret);
  });

  it('refuses URLs that reach internal addresses when saving', async () => {
    for (const url of ['http://hooks.example.test/x', 'https://localhost/x', 'https://127.0.0.1/x', 'https://10.0.0.5/x', 'https://169.254.169.254/latest', 'https://[::ffff:127.0.0.1]/x', 'https://0x7f000001/', 'https://2130706433/', 'https://127.1/', '192.168.1.1/hook']) {
      const res = await api.request('PUT', '/api/webhook', { token: master.token, body: { webhook: url, subscriptions: ALL_ON } });
      expect(res.status, url).to.equal(400);
      expect(res.body.errors[0].key, url).to.equal('webhook');
    }
    expect(await api.deps.knex('webhooks').where({ workspaceId: ws.id })).to.have.length(0);
  });

  it('is for level 6 and up: an operator (3) gets 403 on every call', async () => {
    const operator = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    for (const [method, path] of [['GET', '/api/webhook'], ['PUT', '/api/webhook'], ['POST', '/api/webhook/secret'], ['GET', '/api/webhook/deliveries'], ['POST', '/api/webhook/deliveries/1/replay']]) {
      const res = await api.request(method, path, { token: operator.token, body: method === 'PUT' ? { webhook: 'https://hooks.example.test/x', subscriptions: ALL_ON } : undefined });
      expect(res.status, `${method} ${path}`).to.equal(403);
    }
  });

  it('delivers signed events the receiver can verify with the secret the API shows', async () => {
    const secret = await configureReceiver();
    await withWorker(async () => {
      const result = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'ana', name: 'Ana' }, content: [{ insert: 'Oi!\n' }] }));
      await receiver.waitFor(() => receiver.accepted.length === 1);
      const hook = receiver.accepted[0];
      expect(hook.signatureValid).to.equal(true);
      expect(hook.signature).to.match(/^v1,/);
      expect(Math.abs(Number(hook.timestamp) - Date.now() / 1000)).to.be.lessThan(30);
      expect(hook.json).to.deep.include({ type: 'message:received', workspaceId: ws.id });
      expect(hook.json.data).to.deep.include({ conversationId: result.conversationId });
      expect(hook.json.data.message).to.include({ id: result.messageId, text: 'Oi!', sender: 'customer' });
      // The check can fail: a tampered body does not verify with the same secret.
      expect(verifySignature(secret, hook.id, hook.timestamp, hook.body.replace('Oi!', 'Oi?'), hook.signature)).to.equal(false);
    });
    const [row] = await deliveries();
    expect(row).to.include({ status: 'delivered', attempts: 1, lastStatusCode: 204, event: 'message:received' });
    expect(receiver.accepted[0].id).to.equal(`msg_${row.id}`);

    const log = await api.request('GET', '/api/webhook/deliveries', { token: master.token });
    expect(log.body.data[0]).to.include({ event: 'message:received', status: 'delivered', attempts: 1, lastStatusCode: 204 });
  });

  it('sends session:status:changed on resolve and reopen, and person:changed on a contact edit, only when subscribed', async () => {
    await configureReceiver({ 'session:status:changed': true, 'person:changed': true });
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'caio', name: 'Caio' } }));
    const customerId = (await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id')).customerId;
    await withWorker(async () => {
      expect((await api.request('POST', `/api/inbox/all/${conv.conversationId}`, { token: master.token, body: { status: 'resolve' } })).status).to.equal(200);
      expect((await api.request('POST', `/api/inbox/all/${conv.conversationId}`, { token: master.token, body: { status: 'open' } })).status).to.equal(200);
      expect((await api.request('PUT', `/api/inbox/customer/${customerId}`, { token: master.token, body: { name: 'Caio Prado' } })).status).to.equal(200);
      await receiver.waitFor(() => receiver.accepted.length === 3);
    });
    // message:received was not subscribed: the inbound message above produced no delivery.
    expect((await deliveries()).map((d) => d.event)).to.deep.equal(['session:status:changed', 'session:status:changed', 'person:changed']);
    expect(receiver.accepted.map((h) => h.json.data.status ?? h.json.data.customer.name)).to.deep.equal(['resolved', 'open', 'Caio Prado']);
    expect(receiver.accepted[0].json.data.conversationId).to.equal(conv.conversationId);
  });

  it('retries while the receiver is down and delivers every event once, in order, when it comes back', async () => {
    await configureReceiver();
    await receiver.stop();
    await withWorker(async () => {
      for (let i = 1; i <= 4; i++) await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'bia' }, content: [{ insert: `msg ${i}\n` }] }));
      // The oldest fails against the closed port a few times; the younger ones wait behind it.
      const deadline = Date.now() + 15_000;
      while ((await deliveries())[0].attempts < 3) {
        if (Date.now() > deadline) throw new Error('the first delivery was not retried while the receiver was down');
        await new Promise((r) => setTimeout(r, 100));
      }
      const failing = await deliveries();
      expect(failing.map((d) => d.status)).to.deep.equal(['pending', 'pending', 'pending', 'pending']);
      expect(failing[0].lastError).to.be.a('string');
      expect(failing.slice(1).map((d) => d.attempts)).to.deep.equal([0, 0, 0]);
      await receiver.start();
      await receiver.waitFor(() => receiver.accepted.length >= 4);
      // Each row is marked delivered after the receiver answered: wait for that rather than guess how long.
      const marked = Date.now() + 15_000;
      while ((await deliveries()).some((d) => d.status !== 'delivered')) {
        if (Date.now() > marked) throw new Error('not every delivery was marked delivered');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1500)); // room for a duplicate to show up
    });
    const rows = await deliveries();
    expect(rows.map((r) => r.status)).to.deep.equal(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(receiver.accepted.map((h) => h.id)).to.deep.equal(rows.map((r) => `msg_${r.id}`));
    expect(receiver.accepted.map((h) => h.json.data.message.text)).to.deep.equal(['msg 1', 'msg 2', 'msg 3', 'msg 4']);
    expect(receiver.accepted.every((h) => h.signatureValid)).to.equal(true);
  });

  it('retries on 5xx honouring Retry-After, and a 410 disables the endpoint and stops', async () => {
    await configureReceiver();
    let calls = 0;
    receiver.respond = () => (++calls === 1 ? { status: 503, headers: { 'retry-after': '1' } } : 410);
    await withWorker(async () => {
      await receiveInbound(api.deps, inboundMessage(channel));
      await receiver.waitFor(() => receiver.all.length === 2);
      const deadline = Date.now() + 10_000;
      while ((await deliveries())[0].status === 'pending') {
        if (Date.now() > deadline) throw new Error('delivery still pending');
        await new Promise((r) => setTimeout(r, 100));
      }
      // Later events are not even recorded for a disabled endpoint.
      await receiveInbound(api.deps, inboundMessage(channel));
      await new Promise((r) => setTimeout(r, 800));
    });
    const gap = receiver.all.length === 2 ? Number(receiver.all[1].timestamp) - Number(receiver.all[0].timestamp) : 0;
    expect(gap).to.be.at.least(1);
    expect(receiver.all).to.have.length(2);
    const rows = await deliveries();
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ status: 'failed', attempts: 2, lastStatusCode: 410 });
    const shown = await api.request('GET', '/api/webhook', { token: master.token });
    expect(shown.body.data.disabledAt).to.be.a('string');
  });

  it('replays a delivery with the same webhook-id', async () => {
    await configureReceiver();
    await withWorker(async () => {
      await receiveInbound(api.deps, inboundMessage(channel));
      await receiver.waitFor(() => receiver.accepted.length === 1);
      const [row] = await deliveries();
      const deadline = Date.now() + 10_000;
      while ((await deliveries())[0].status !== 'delivered') {
        if (Date.now() > deadline) throw new Error('not delivered');
        await new Promise((r) => setTimeout(r, 100));
      }
      const replay = await api.request('POST', `/api/webhook/deliveries/${row.id}/replay`, { token: master.token });
      expect(replay.status).to.equal(200);
      await receiver.waitFor(() => receiver.accepted.length === 2);
    });
    expect(receiver.accepted[1].id).to.equal(receiver.accepted[0].id);
    expect(receiver.accepted[1].body).to.equal(receiver.accepted[0].body);
  });

  it('keeps each workspace to its own webhook, log and deliveries', async () => {
    await configureReceiver();
    await withWorker(async () => {
      await receiveInbound(api.deps, inboundMessage(channel));
      await receiver.waitFor(() => receiver.accepted.length === 1);
    });
    const [row] = await deliveries();
    const other = await makeWorkspace(api.deps.knex);
    const otherMaster = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
    const got = await api.request('GET', '/api/webhook', { token: otherMaster.token });
    expect(got.body.data).to.include({ webhook: '', secret: null });
    expect((await api.request('GET', '/api/webhook/deliveries', { token: otherMaster.token })).body.data).to.deep.equal([]);
    expect((await api.request('POST', `/api/webhook/deliveries/${row.id}/replay`, { token: otherMaster.token })).status).to.equal(404);
    // An event in the other workspace goes nowhere near this workspace's receiver.
    const otherChannel = await makeChannel(api.deps.knex, other);
    await receiveInbound(api.deps, inboundMessage(otherChannel));
    expect(await api.deps.knex('webhook_deliveries').where({ workspaceId: other.id })).to.have.length(0);
  });
});
