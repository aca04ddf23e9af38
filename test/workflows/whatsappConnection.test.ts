import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Boom } from '@hapi/boom';
import { DisconnectReason, type BaileysEventMap } from 'baileys';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { loadConfig, type Config } from '../../api/config';
import type { PostgresAuthState } from '../../activities/channels/whatsapp/authState';
import { createStateCipher } from '../../activities/channels/whatsapp/stateCipher';
import type { MakeQrSocket, QrSocket } from '../../activities/channels/whatsapp/qrSocket';
import { workflowIds } from '../../workflows/ids';
import { whatsappConnection, whatsappConnectionStateQuery, whatsappRestartSignal } from '../../workflows';
import { testDatabase } from '../helpers/db';
import { unique } from '../helpers/factories';
import { timeSkippingEnvironment } from '../helpers/temporal';
import { FakeQrSocket } from '../fakes/baileys';
import { makeQrLine, type TestQrLine } from '../channels/whatsapp/qr/helpers';
import { QrLiveSockets } from '../../activities/channels/whatsapp/liveSockets';
import { sessionQueueOf } from '../../api/channels/whatsapp/qr/sessionQueue';
import { reconcileQrConnections } from '../../activities/channels/whatsapp/reconcileConnections';
import type { TemporalGateway } from '../../api/temporal/client';
import { RecordingPublisher } from './subscription/rows';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const ME = { id: '5511999990000:3@s.whatsapp.net', lid: '99887766:3@lid' };

/** Baileys' socket as far as the session uses it: `end` emits the close and drops the listeners, as Baileys does. */
class ScriptedSocket extends FakeQrSocket implements QrSocket {
  ended = false;
  constructor(readonly auth: PostgresAuthState) {
    super();
  }
  end(error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }
  close(statusCode: number, message: string): void {
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error: new Boom(message, { statusCode }), date: new Date() } });
    this.ended = true;
  }
  update(u: Partial<BaileysEventMap['connection.update']>): void {
    this.emit('connection.update', u);
  }
}

/** Every socket the session activity opens, in order; a test waits for the next one. */
class SocketLog {
  readonly opened: ScriptedSocket[] = [];
  readonly makeSocket: MakeQrSocket = async ({ auth }) => {
    const socket = new ScriptedSocket(auth);
    this.opened.push(socket);
    return { socket, fetchMedia: async () => ({ tooLarge: true }) };
  };
  async nth(n: number, ms?: number): Promise<ScriptedSocket> {
    await until(() => this.opened.length >= n, `socket #${n}`, ms);
    return this.opened[n - 1];
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('whatsappConnection workflow: one QR socket per line (time-skipping server, real database)', function () {
  this.timeout(90_000);
  let env: TestWorkflowEnvironment;
  let knex: Knex;
  let workflowBundle: WorkflowBundleWithSourceMap;
  let config: Config;
  let publisher: RecordingPublisher;
  const cipher = createStateCipher('chave-conexao');

  before(async () => {
    [env, { knex }, workflowBundle] = await Promise.all([timeSkippingEnvironment(), testDatabase(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-wa-')), JWT_SECRET: 'wa-test-secret'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'x' });
  });
  after(() => env?.teardown());

  let line: TestQrLine;
  let sockets: SocketLog;
  let taskQueue: string;
  let live: QrLiveSockets;
  beforeEach(async () => {
    line = await makeQrLine(knex);
    sockets = new SocketLog();
    publisher = new RecordingPublisher();
    taskQueue = unique('wa');
    live = new QrLiveSockets(`${taskQueue}-whatsapp-session-test`);
  });

  const newWorker = (over: Partial<WorkerOptions> = {}) =>
    Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      // Heartbeats (and so a restart's cancellation) travel at once instead of every 16 s.
      maxHeartbeatThrottleInterval: '100 milliseconds',
      ...over,
      activities: createActivities({ knex, publisher, logger: createLogger('silent'), config }, { whatsappQr: { makeSocket: sockets.makeSocket, cipher: () => cipher, heartbeatMs: 100, sockets: live } }),
    });
  const start = () => env.client.workflow.start(whatsappConnection, { taskQueue, workflowId: workflowIds.channel(line.channelId), args: [{ workspaceId: line.workspaceId, channelId: line.channelId }] });
  const status = async () => (await knex('channels').where({ id: line.channelId }).first('status')).status as string;
  const statusIs = (s: string) => until(async () => (await status()) === s, `status ${s}`);
  const qrcode = async () => (await knex('whatsapp_connections').where({ channelId: line.channelId }).first('qrcode'))?.qrcode as string | null | undefined;
  const published = () => publisher.events.filter((e) => e.topic === `ws/${line.workspaceId}/all` && e.event === 'channel.status').map((e) => (e.data as { status: string }).status);

  /**
   * Ends a test's workflow the way a line ends (terminating it under a running activity leaves the
   * time-skipping server's clock locked for the next test).
   */
  async function logOut(s: ScriptedSocket, handle: { result(): Promise<unknown> }) {
    s.close(DisconnectReason.loggedOut, 'Intentional Logout');
    expect(await handle.result()).to.equal('loggedOut');
  }

  /** The phone reads the QR: Baileys saves the new creds and asks for a restart (515). */
  function pair(s: ScriptedSocket) {
    s.auth.state.creds.me = { ...ME };
    s.auth.state.creds.registered = true;
    s.emit('creds.update', { me: s.auth.state.creds.me, registered: true });
    s.close(DisconnectReason.restartRequired, 'Stream Errored (restart required)');
  }

  /** A line linked before: its stored session has the account, and the socket opens on it. */
  async function openLinked(s: ScriptedSocket) {
    s.auth.state.creds.me = { ...ME };
    await s.auth.saveCreds();
    s.update({ connection: 'open' });
    await statusIs('connected');
  }

  it('QR → read → open; connection lost → 1 s backoff → reconnects with the stored session; a second loss in a row waits 2 s', async () => {
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await start();
      const s1 = await sockets.nth(1);
      s1.update({ connection: 'connecting' });
      s1.update({ qr: '2@qr-um,chave,id,adv' });
      await statusIs('qr_code');
      expect(await qrcode()).to.equal('2@qr-um,chave,id,adv');

      pair(s1);
      const s2 = await sockets.nth(2);
      // Reconnected at once (515), with the session the first socket saved.
      expect((await handle.query(whatsappConnectionStateQuery)).lastDelayMs).to.equal(0);
      expect(s2.auth.state.creds.me?.id).to.equal(ME.id);
      s2.update({ connection: 'open' });
      await statusIs('connected');
      expect(await qrcode()).to.equal(null);

      s2.close(DisconnectReason.connectionLost, 'Connection was lost');
      const s3 = await sockets.nth(3);
      expect(await handle.query(whatsappConnectionStateQuery)).to.include({ attempts: 3, failures: 1, lastDelayMs: 1000, lastReason: 'timedOut' });
      expect(s3.auth.state.creds.me?.id).to.equal(ME.id);

      s3.close(DisconnectReason.connectionClosed, 'Connection Closed');
      await sockets.nth(4);
      expect(await handle.query(whatsappConnectionStateQuery)).to.include({ attempts: 4, failures: 2, lastDelayMs: 2000 });
      const s4 = sockets.opened[3];
      s4.update({ connection: 'open' });
      await statusIs('connected');

      // An opened connection resets the backoff: the next loss waits 1 s again.
      s4.close(DisconnectReason.connectionLost, 'Connection was lost');
      const s5 = await sockets.nth(5);
      expect(await handle.query(whatsappConnectionStateQuery)).to.include({ failures: 1, lastDelayMs: 1000 });

      const timers = (await handle.fetchHistory()).events!.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
      expect(timers).to.deep.equal([1, 2, 1]);
      expect(published()).to.include.members(['qr_code', 'connected', 'processing_channel']);
      await logOut(s5, handle);
    });
  });

  it('logged out: session dropped, line disconnected with channel.status, the workflow ends without reconnecting', async () => {
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await start();
      const s1 = await sockets.nth(1);
      await openLinked(s1);

      s1.close(DisconnectReason.loggedOut, 'Intentional Logout');
      expect(await handle.result()).to.equal('loggedOut');
      expect(await status()).to.equal('disconnected');
      expect(published().at(-1)).to.equal('disconnected');
      expect(await knex('whatsapp_auth_state').where({ channelId: line.channelId })).to.have.length(0);
      await env.sleep('10 minutes');
      expect(sockets.opened).to.have.length(1);
    });
  });

  it("'Reiniciar' closes the live socket before opening a new one; after a logout it starts a new run that shows a new QR", async () => {
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await start();
      const s1 = await sockets.nth(1);
      await openLinked(s1);

      await handle.signal(whatsappRestartSignal);
      const s2 = await sockets.nth(2);
      expect(s1.ended, 'the old socket is closed first').to.equal(true);
      expect(published()).to.include('restarting_channel');
      expect(s2.auth.state.creds.me?.id, 'a restart keeps the session').to.equal(ME.id);
      s2.update({ connection: 'open' });
      await statusIs('connected');

      s2.close(DisconnectReason.loggedOut, 'Intentional Logout');
      expect(await handle.result()).to.equal('loggedOut');

      // What POST /api/integrations/restart does: signal-with-start on the same id.
      await env.client.workflow.signalWithStart(whatsappConnection, {
        taskQueue,
        workflowId: workflowIds.channel(line.channelId),
        args: [{ workspaceId: line.workspaceId, channelId: line.channelId }],
        signal: whatsappRestartSignal,
        signalArgs: [],
      });
      const s3 = await sockets.nth(3);
      expect(s3.auth.state.creds.me, 'logged out: a fresh session').to.equal(undefined);
      s3.update({ qr: '2@qr-novo,chave,id,adv' });
      await statusIs('qr_code');
      expect(await qrcode()).to.equal('2@qr-novo,chave,id,adv');
      await logOut(s3, env.client.workflow.getHandle(workflowIds.channel(line.channelId)));
    });
  });

  it("the session offers its socket to this worker's senders and notes the worker's own queue while open; both go when it closes", async () => {
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await start();
      const s1 = await sockets.nth(1);
      expect(live.get(line.channelId), 'not open yet').to.equal(undefined);
      await openLinked(s1);
      expect(live.get(line.channelId)).to.equal(s1);
      await until(async () => (await sessionQueueOf(knex, line)) === live.taskQueue, 'session queue noted');
      await logOut(s1, handle);
      expect(live.get(line.channelId)).to.equal(undefined);
      expect(await sessionQueueOf(knex, line)).to.equal(null);
    });
  });

  it('start-up reconcile starts channel:{id} for QR lines without a running workflow, not for stopped (disconnected) or Cloud lines, and never twice', async () => {
    const stopped = await makeQrLine(knex);
    await knex('channels').where({ id: stopped.channelId }).update({ status: 'disconnected' });
    const cloud = await makeQrLine(knex);
    await knex('channels').where({ id: cloud.channelId }).update({ config: JSON.stringify({ provider: 'cloud', phoneNumberId: '1', businessAccountId: '2', verifyToken: 'v', accessTokenSealed: 'x', appSecretSealed: 'y' }) });
    await knex('channels').where({ id: line.channelId }).update({ status: 'qr_code' });
    const gateway = { client: async () => env.client, taskQueue } as unknown as TemporalGateway;
    // Only this test's lines: the database is shared with other tests' lines.
    const ours = [line.channelId, stopped.channelId, cloud.channelId];
    const describeOf = (id: number) => env.client.workflow.getHandle(workflowIds.channel(id)).describe().then((d) => d.status.name, () => 'none');
    const worker = await newWorker();
    await worker.runUntil(async () => {
      expect(await reconcileQrConnections({ knex, logger: createLogger('silent'), temporal: gateway }, { channelIds: ours })).to.equal(1);
      expect(await Promise.all(ours.map(describeOf))).to.deep.equal(['RUNNING', 'none', 'none']);
      const s1 = await sockets.nth(1);
      expect(await reconcileQrConnections({ knex, logger: createLogger('silent'), temporal: gateway }, { channelIds: ours })).to.equal(0);
      expect(await describeOf(line.channelId)).to.equal('RUNNING');
      expect(sockets.opened, 'the running workflow is kept').to.have.length(1);
      await logOut(s1, env.client.workflow.getHandle(workflowIds.channel(line.channelId)));
    });
  });

  it('a worker built without a socket factory (every createActivities but the worker process) fails the session and never opens a socket', async () => {
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle, activities: createActivities({ knex, publisher, logger: createLogger('silent'), config }) });
    await worker.runUntil(async () => {
      const err = await (await start()).result().then(() => undefined, (e: unknown) => e as { cause?: { cause?: { type?: string } } });
      expect(err?.cause?.cause?.type).to.equal('QrSocketsDisabled');
    });
  });

  it('a worker killed mid-session: the heartbeat timeout hands the socket to another worker, which resumes without a new QR', async () => {
    // Activities are never cancelled and the worker gives up after 300 ms: nothing is reported, as when the process dies.
    // Its own connection (a forced-down worker keeps its reference) and no sticky cache (its queue would die with it).
    const lost = await NativeConnection.connect({ address: env.address });
    const first = await newWorker({ connection: lost, maxCachedWorkflows: 0, shutdownGraceTime: '1 hour', shutdownForceTime: '300 milliseconds' });
    const running = first.run().catch((err: unknown) => err);
    const handle = await start();
    const s1 = await sockets.nth(1);
    s1.update({ qr: '2@qr-um,chave,id,adv' });
    await statusIs('qr_code');
    pair(s1);
    const s2 = await sockets.nth(2);
    s2.update({ connection: 'open' });
    await statusIs('connected');
    first.shutdown();
    expect(await running, 'forced down, the activity left running').to.be.instanceOf(Error);
    const second = await newWorker();
    await second.runUntil(async () => {
      // Past the heartbeat timeout (20 s, real time: the lost attempt holds the test server's clock) the
      // attempt times out and is retried here.
      const s3 = await sockets.nth(3, 45_000);
      expect(s3.auth.state.creds.me?.id).to.equal(ME.id);
      s3.update({ connection: 'open' });
      await statusIs('connected');
      expect(await qrcode()).to.equal(null);
      const [pending] = (await handle.describe()).raw.pendingActivities ?? [];
      expect(pending.attempt, 'the same activity, retried').to.equal(2);
      expect(pending.lastFailure?.timeoutFailureInfo?.timeoutType, 'after a heartbeat timeout').to.equal(temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_HEARTBEAT);
      expect(await handle.query(whatsappConnectionStateQuery)).to.include({ attempts: 2 });
      await logOut(s3, handle);
    });
    // The dead worker's socket: closed, so its activity ends with the test.
    s2.end(undefined);
  });
});
