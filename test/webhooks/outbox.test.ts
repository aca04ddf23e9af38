import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { recordWebhookEvent } from '../../api/webhooks/recordWebhookEvent';
import { personChangedData } from '../../api/webhooks/payloads';
import { reconcileDeliveries, startDeliverySweeper, startUnstartedDeliveries } from '../../api/webhooks/startDelivery';
import { workflowIds } from '../../workflows/ids';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { inboundMessage, makeChannel, type TestChannel } from '../inbox/factories';
import { WebhookReceiver } from '../fakes/webhookReceiver';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const ALL_ON = { 'message:received': true, 'session:status:changed': true, 'person:changed': true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Webhook outbox: events recorded with their change, workflows started after commit or by the sweep', function () {
  this.timeout(90_000);
  let api: TestApi;
  let connection: NativeConnection;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let ws: TestWorkspace;
  let master: TestOperator;
  let channel: TestChannel;
  const receiver = new WebhookReceiver();

  before(async () => {
    api = await startTestApi({ temporalTaskQueue: unique('outbox') });
    [connection, workflowBundle] = await Promise.all([testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
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
    // The sweeps cover the whole database: what earlier tests left pending is settled first.
    await api.deps.knex('webhook_deliveries').where({ status: 'pending' }).update({ status: 'failed', lastError: 'test cleanup', nextAttemptAt: null });
    receiver.all.length = 0;
    receiver.accepted.length = 0;
    receiver.respond = () => 204;
    await receiver.start();
    const saved = await api.request('PUT', '/api/webhook', { token: master.token, body: { webhook: 'hooks.example.test/balcao', subscriptions: ALL_ON } });
    expect(saved.status).to.equal(200);
    await api.deps.knex('webhooks').where({ id: saved.body.data.id }).update({ url: receiver.url });
    receiver.secret = saved.body.data.secret;
  });

  async function withWorker(fn: () => Promise<void>): Promise<void> {
    const worker = await Worker.create({
      connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle,
      activities: createActivities(
        { knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent') },
        { webhooks: { allowLoopbackForTests: true, timeoutMs: 10_000, initialDelayMs: 200, maxDelayMs: 400, orderWaitMs: 50, maxAttempts: 100 } },
      ),
    });
    await worker.runUntil(fn());
  }

  const deliveries = () => api.deps.knex('webhook_deliveries').where({ workspaceId: ws.id }).orderBy('id');
  /** The api as it is when Temporal cannot be reached: the change commits, nothing is started. */
  const withoutTemporal = () => ({ ...api.deps, temporal: undefined });

  async function until(probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await sleep(100);
    }
  }

  it('writes the delivery in the transaction of the change: a rolled-back change leaves no delivery', async () => {
    const conv = await receiveInbound(withoutTemporal(), inboundMessage(channel, { identity: { externalId: 'rui', name: 'Rui' } }));
    const customerId = (await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id')).customerId as number;
    const before = (await deliveries()).length;
    const failure = await api.deps.knex
      .transaction(async (trx) => {
        await trx('customers').where({ id: customerId }).update({ name: 'Rui Costa' });
        const ids = await recordWebhookEvent(trx, ws.id, 'person:changed', (db) => personChangedData(db, ws.id, customerId));
        expect(ids).to.have.length(1);
        // The payload is read inside the transaction: it already shows the edit.
        const [row] = await trx('webhook_deliveries').whereIn('id', ids);
        expect(row.payload.data.customer.name).to.equal('Rui Costa');
        throw new Error('the change fails after the event was recorded');
      })
      .catch((err: Error) => err);
    expect(failure).to.be.instanceOf(Error);
    expect(await deliveries()).to.have.length(before);
    expect((await api.deps.knex('customers').where({ id: customerId }).first('name')).name).to.equal('Rui');
  });

  it('keeps the event when the workflow cannot be started after commit, and the sweep delivers it once', async () => {
    // The inbound message and the contact edit commit with their events; Temporal is "down" for the api.
    const conv = await receiveInbound(withoutTemporal(), inboundMessage(channel, { identity: { externalId: 'lia' }, content: [{ insert: 'Olá\n' }] }));
    const rows = await deliveries();
    expect(rows.map((r) => [r.event, r.status, r.workflowStartedAt])).to.deep.equal([['message:received', 'pending', null]]);
    expect(rows[0].payload.data.message).to.include({ id: conv.messageId, text: 'Olá' });

    // A sweep leaves rows younger than its threshold to the request that recorded them.
    expect(await startUnstartedDeliveries(api.deps, { olderThanMs: 60_000 })).to.equal(0);
    await withWorker(async () => {
      expect(await startUnstartedDeliveries(api.deps, { olderThanMs: 0 })).to.equal(1);
      // A second sweep and a reconcile start nothing new: the same workflow id is reused.
      await startUnstartedDeliveries(api.deps, { olderThanMs: 0 });
      await reconcileDeliveries(api.deps);
      await receiver.waitFor(() => receiver.accepted.length === 1);
      await until(async () => (await deliveries())[0].status === 'delivered');
      await sleep(500);
    });
    expect(receiver.accepted).to.have.length(1);
    expect(receiver.accepted[0].id).to.equal(`msg_${rows[0].id}`);
    expect(receiver.accepted[0].signatureValid).to.equal(true);
    const [row] = await deliveries();
    expect(row).to.include({ status: 'delivered', attempts: 1 });
    expect(row.workflowStartedAt).to.be.instanceOf(Date);
  });

  it('the periodic sweeper picks up an unstarted delivery by itself', async () => {
    await receiveInbound(withoutTemporal(), inboundMessage(channel));
    await withWorker(async () => {
      const sweeper = startDeliverySweeper({ ...api.deps, logger: createLogger('silent') }, { intervalMs: 200, olderThanMs: 0 });
      try {
        await receiver.waitFor(() => receiver.accepted.length === 1);
      } finally {
        await sweeper.stop();
      }
    });
    expect((await deliveries()).map((r) => r.status)).to.deep.equal(['delivered']);
  });

  it('starts the workflow right after commit when Temporal is there (the sweep finds nothing to do)', async () => {
    await withWorker(async () => {
      await receiveInbound(api.deps, inboundMessage(channel));
      const [row] = await deliveries();
      expect(row.workflowStartedAt).to.be.instanceOf(Date);
      expect(await startUnstartedDeliveries(api.deps, { olderThanMs: 0 })).to.equal(0);
      await receiver.waitFor(() => receiver.accepted.length === 1);
    });
  });

  it('worker reconcile restarts a pending delivery whose workflow is gone, keeping its attempts and order', async () => {
    await receiver.stop();
    await withWorker(async () => {
      await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'edu' }, content: [{ insert: 'um\n' }] }));
      await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'edu' }, content: [{ insert: 'dois\n' }] }));
      await until(async () => (await deliveries())[0].attempts >= 2);
      // The workflows are lost (a wiped Temporal history, a terminated run): the rows stay pending.
      const client = await api.deps.temporal.client();
      for (const r of await deliveries()) await client.workflow.getHandle(workflowIds.webhook(Number(r.id))).terminate('lost');
      expect(await startUnstartedDeliveries(api.deps, { olderThanMs: 0 }), 'they were started once: not the sweep’s business').to.equal(0);
      expect((await deliveries()).map((r) => r.status)).to.deep.equal(['pending', 'pending']);

      expect(await reconcileDeliveries(api.deps)).to.equal(2);
      await receiver.start();
      await receiver.waitFor(() => receiver.accepted.length === 2);
      await until(async () => (await deliveries()).every((r) => r.status === 'delivered'));
    });
    expect(receiver.accepted.map((h) => h.json.data.message.text)).to.deep.equal(['um', 'dois']);
    const rows = await deliveries();
    expect(rows[0].attempts).to.be.greaterThan(2, 'the attempts before the loss are kept');
    expect(rows[1].attempts).to.equal(1);
  });

  it('records session:status:changed and person:changed with their change even when nothing can be started', async () => {
    const conv = await receiveInbound(withoutTemporal(), inboundMessage(channel, { identity: { externalId: 'ivo', name: 'Ivo' } }));
    const customerId = (await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id')).customerId as number;
    // The api's gateway points at a server that does not answer.
    const temporal = api.deps.temporal;
    const client = temporal.client;
    temporal.client = () => Promise.reject(new Error('temporal unreachable'));
    try {
      expect((await api.request('POST', `/api/inbox/all/${conv.conversationId}`, { token: master.token, body: { status: 'resolve' } })).status).to.equal(200);
      expect((await api.request('PUT', `/api/inbox/customer/${customerId}`, { token: master.token, body: { name: 'Ivo Reis' } })).status).to.equal(200);
    } finally {
      temporal.client = client;
    }
    const rows = await deliveries();
    expect(rows.map((r) => [r.event, r.status, r.workflowStartedAt])).to.deep.equal([
      ['message:received', 'pending', null],
      ['session:status:changed', 'pending', null],
      ['person:changed', 'pending', null],
    ]);
    await withWorker(async () => {
      expect(await startUnstartedDeliveries(api.deps, { olderThanMs: 0 })).to.equal(3);
      await receiver.waitFor(() => receiver.accepted.length === 3);
    });
    expect(receiver.accepted.map((h) => h.json.type)).to.deep.equal(['message:received', 'session:status:changed', 'person:changed']);
    expect(receiver.accepted[2].json.data.customer.name).to.equal('Ivo Reis');
  });
  it('a custom property saved or removed is a person:changed carrying the properties', async () => {
    const conv = await receiveInbound(withoutTemporal(), inboundMessage(channel, { identity: { externalId: 'bea', name: 'Bea' } }));
    const customerId = (await api.deps.knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id')).customerId as number;
    await withWorker(async () => {
      await startUnstartedDeliveries(api.deps, { olderThanMs: 0 });
      const saved = await api.request('POST', `/api/inbox/customer/${customerId}/properties`, { token: master.token, body: { label: 'Plano', value: 'Ouro' } });
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      const propertyId = (await api.deps.knex('customer_properties').where({ customerId }).first('id')).id as number;
      const removed = await api.request('DELETE', `/api/inbox/customer/${customerId}/properties/${propertyId}`, { token: master.token });
      expect(removed.status).to.equal(200);
      await receiver.waitFor(() => receiver.accepted.length === 3);
    });
    expect(receiver.accepted.map((h) => h.json.type)).to.deep.equal(['message:received', 'person:changed', 'person:changed']);
    expect(receiver.accepted[1].json.data.customer.properties).to.deep.equal([{ label: 'Plano', code: 'plano', value: 'Ouro' }]);
    expect(receiver.accepted[2].json.data.customer.properties).to.deep.equal([]);
  });
});
