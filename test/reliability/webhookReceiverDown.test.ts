import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { createMqttPublisher } from '../../api/realtime/mqttPublisher';
import { testDatabase } from '../helpers/db';
import { testNativeConnection, testTemporalAddress } from '../helpers/temporal';
import { WebhookReceiver } from '../fakes/webhookReceiver';
import { ChildApi, MQTT_INTERNAL_PASSWORD } from './support/childApi';
import { eventually, firstContact, makeTeam, sendAsVisitor, clientMessageId, type Team } from './support/fixtures';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const ALL_ON = { 'message:received': true, 'session:status:changed': true, 'person:changed': true };

/**
 * A webhook receiver down for a while, with the api as a real child process producing the events through
 * its public API and a worker that is itself restarted during the outage. Public behaviour only: what the
 * receiver gets.
 */
describe('Reliability: a webhook receiver down for a while', function () {
  this.timeout(150_000);
  let api: ChildApi;
  let connection: NativeConnection;
  let bundle: WorkflowBundleWithSourceMap;
  let team: Team;
  const receiver = new WebhookReceiver();

  before(async () => {
    const { url } = await testDatabase();
    api = new ChildApi({ databaseUrl: url, temporalAddress: await testTemporalAddress() });
    [, connection, bundle] = await Promise.all([api.start(), testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    await receiver.start();
  });
  after(async () => {
    await receiver.stop();
    await connection?.close();
    await api?.stop();
  });

  /** The production worker's activities on the api's task queue, allowed to reach the loopback receiver, retrying within a second. */
  async function startWorker(): Promise<{ stop: () => Promise<void> }> {
    const { knex } = await testDatabase();
    const publisher = createMqttPublisher(api.wsUrl, MQTT_INTERNAL_PASSWORD);
    const worker = await Worker.create({
      connection,
      taskQueue: `reliability-${process.pid}-${api.port}`,
      workflowBundle: bundle,
      activities: createActivities(
        { knex, publisher, logger: createLogger('silent') },
        { webhooks: { allowLoopbackForTests: true, timeoutMs: 2000, initialDelayMs: 200, maxDelayMs: 800, orderWaitMs: 50, maxAttempts: 200 } },
      ),
    });
    const running = worker.run();
    return {
      async stop() {
        worker.shutdown();
        await running;
        await publisher.close();
      },
    };
  }

  it('every event produced while it was down is delivered once after it returns, in order of id, across a worker restart', async () => {
    const { knex } = await testDatabase();
    team = await makeTeam(knex, api);
    const saved = await api.request('PUT', '/api/webhook', { token: team.owner.token, body: { webhook: 'hooks.example.test/balcao', subscriptions: ALL_ON } });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    // The API refuses loopback targets (as in production); the stored row is pointed at the local receiver.
    await knex('webhooks').where({ id: saved.body.data.id }).update({ url: receiver.url });
    receiver.secret = saved.body.data.secret;

    let worker = await startWorker();
    try {
      await receiver.stop();
      const ana = await firstContact(api, team, 'Olá, sou a Ana');
      const bia = await firstContact(api, team, 'Olá, sou a Bia');
      const conversationOf = async (visitorId: string) => (await knex('customer_platforms').where({ channelId: team.widget.id, externalId: visitorId }).first('id')).id as number;
      const anaConversation = await conversationOf(ana.id);
      for (let i = 1; i <= 3; i++) {
        expect((await sendAsVisitor(api, team, ana, `ana ${i}`, clientMessageId())).status).to.equal(201);
        expect((await sendAsVisitor(api, team, bia, `bia ${i}`, clientMessageId())).status).to.equal(201);
      }
      expect((await api.request('POST', `/api/inbox/all/${anaConversation}`, { token: team.owner.token, body: { status: 'resolve' } })).status).to.equal(200);
      expect((await sendAsVisitor(api, team, ana, 'ana voltou', clientMessageId())).status).to.equal(201);

      const deliveries = () => knex('webhook_deliveries').where({ workspaceId: team.ws.id }).orderBy('id');
      await eventually(async () => {
        const rows = await deliveries();
        return rows.length === 10 && rows[0].attempts >= 3 ? rows : undefined;
      }, 30_000, 'ten deliveries recorded, the oldest retried while the receiver is down');
      expect(receiver.accepted).to.have.length(0);

      // The worker goes away and comes back during the outage.
      await worker.stop();
      worker = await startWorker();
      await new Promise((r) => setTimeout(r, 1500));

      await receiver.start();
      await receiver.waitFor(() => receiver.accepted.length >= 10, 60_000);
      await new Promise((r) => setTimeout(r, 2000)); // room for a duplicate to show up
    } finally {
      await worker.stop();
    }
    const rows = await knex('webhook_deliveries').where({ workspaceId: team.ws.id }).orderBy('id');
    expect(rows.map((r) => r.status)).to.deep.equal(Array(10).fill('delivered'));
    expect(receiver.accepted.map((h) => h.id), 'each once, in order of id').to.deep.equal(rows.map((r) => `msg_${r.id}`));
    expect(receiver.accepted.map((h) => h.json.type)).to.deep.equal([
      ...Array(8).fill('message:received'),
      'session:status:changed',
      'message:received',
    ]);
    expect(receiver.accepted.slice(0, 8).map((h) => h.json.data.message.text.trim())).to.deep.equal(['Olá, sou a Ana', 'Olá, sou a Bia', 'ana 1', 'bia 1', 'ana 2', 'bia 2', 'ana 3', 'bia 3']);
    expect(receiver.accepted.every((h) => h.signatureValid), 'signed with the secret the API shows').to.equal(true);
  });
});
