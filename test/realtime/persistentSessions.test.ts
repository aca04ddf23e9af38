import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import mqtt, { type MqttClient } from 'mqtt';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { attachBroker, type EmbeddedBroker } from '../../api/realtime/broker';
import { setOperatorOnline } from '../../api/assignment/setOperatorOnline';
import { topics } from '../../api/realtime/publisher';
import { testDatabase } from '../helpers/db';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { sleep, waitFor } from './mqttClients';

const EXPIRY_MS = 800;

describe('realtime: persistent operator sessions (clean: false)', () => {
  let server: http.Server;
  let broker: EmbeddedBroker;
  let url: string;
  let knex: Knex;
  let jwtSecret: string;
  let ws: TestWorkspace;
  let a2: TestOperator;
  const open: MqttClient[] = [];

  before(async () => {
    ({ knex } = await testDatabase());
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-sessions-')), PORT: String(port), JWT_SECRET: 'sessions-secret-'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'internal' });
    jwtSecret = config.jwtSecret;
    broker = attachBroker(server, { config, knex, logger: createLogger('silent'), onPresence: setOperatorOnline, sessionExpiryMs: EXPIRY_MS });
    url = `ws://127.0.0.1:${port}/mqtt`;
    ws = await makeWorkspace(knex);
    a2 = await makeOperator(knex, config.jwtSecret, ws, 10);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
  });
  after(async () => {
    await broker.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  interface Connected {
    client: MqttClient;
    sessionPresent: boolean;
    received: string[];
  }

  /** Connects (no automatic reconnection) and records the `data.n` of every event. */
  function connect(o: TestOperator, clientId: string, clean = false): Promise<Connected> {
    const client = mqtt.connect(url, { username: String(o.id), password: o.token, clientId, clean, reconnectPeriod: 0, connectTimeout: 3000, protocolVersion: 4 });
    open.push(client);
    const received: string[] = [];
    client.on('message', (_t, payload) => received.push(String((JSON.parse(payload.toString('utf8')) as { data: { n: string } }).data.n)));
    return new Promise((resolve, reject) => {
      client.once('connect', (connack) => resolve({ client, sessionPresent: connack.sessionPresent, received }));
      client.once('error', reject);
    });
  }

  const publish = async (o: TestOperator, ...ns: string[]) => {
    for (const n of ns) await broker.publisher.publish(topics.operator(ws.id, o.id), 'chat.newMessage', { n });
  };

  const isOnline = async (o: TestOperator) => (await knex('workspace_members').where({ workspaceId: ws.id, operatorId: o.id }).first('is_online')).isOnline as boolean;
  async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
    for (const deadline = Date.now() + 15_000; !(await probe()); await sleep(25)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    }
  }

  /**
   * A new operator's subscribed session whose connection then dies without a DISCONNECT (a network drop).
   * Resolves once the broker has seen the drop: the operator's presence goes offline in the same handler
   * that starts the session's expiry, so the test never races the broker noticing the closed socket.
   */
  async function subscribedThenGone(clientId: string): Promise<TestOperator> {
    const o = await makeOperator(knex, jwtSecret, ws, 10);
    const first = await connect(o, clientId);
    expect(first.sessionPresent).to.equal(false);
    await first.client.subscribeAsync(topics.operator(ws.id, o.id), { qos: 1 });
    await until(() => isOnline(o), 'the operator online');
    first.client.stream.destroy();
    await until(async () => !(await isOnline(o)), 'the broker to see the drop');
    return o;
  }

  /** Nothing but `marker` reaches the session: published after everything else, it arrives alone. */
  async function onlyMarkerArrives(c: Connected, o: TestOperator): Promise<void> {
    await c.client.subscribeAsync(topics.operator(ws.id, o.id), { qos: 1 });
    await publish(o, 'marcador');
    await waitFor(() => c.received.includes('marcador'), undefined, 'the marker event');
    await sleep(100);
    expect(c.received).to.deep.equal(['marcador']);
  }

  it('keeps the session after a drop: the reconnection finds it (sessionPresent) and gets the missed events in order', async () => {
    const o = await subscribedThenGone('tab-keep');
    await publish(o, '1', '2', '3');
    const again = await connect(o, 'tab-keep');
    expect(again.sessionPresent).to.equal(true);
    await waitFor(() => again.received.length === 3, undefined, 'the 3 missed events');
    expect(again.received).to.deep.equal(['1', '2', '3']);
    // And it is still subscribed.
    await publish(o, '4');
    await waitFor(() => again.received.length === 4, undefined, 'the event after the reconnection');
    expect(again.received).to.deep.equal(['1', '2', '3', '4']);
  });

  it('forgets a session its client did not come back to within the expiry: reconnecting then means refetching', async () => {
    const o = await subscribedThenGone('tab-expire');
    await publish(o, 'lost');
    // The expiry timer started before subscribedThenGone returned; this one fires after it.
    await sleep(EXPIRY_MS + 400);
    const again = await connect(o, 'tab-expire');
    expect(again.sessionPresent).to.equal(false);
    await onlyMarkerArrives(again, o);
  });

  it("gives another operator reusing an offline session's client id a fresh session, with nothing of the first one's", async () => {
    const o = await subscribedThenGone('tab-shared');
    await publish(o, 'para o primeiro');
    const intruder = await connect(a2, 'tab-shared');
    expect(intruder.sessionPresent).to.equal(false);
    await publish(o, 'ainda para o primeiro');
    await onlyMarkerArrives(intruder, a2);
  });

  it('drops the session when the client comes back with clean: true', async () => {
    const o = await subscribedThenGone('tab-clean');
    await publish(o, 'x');
    const clean = await connect(o, 'tab-clean', true);
    expect(clean.sessionPresent).to.equal(false);
    await clean.client.endAsync();
    const again = await connect(o, 'tab-clean');
    expect(again.sessionPresent).to.equal(false);
    await onlyMarkerArrives(again, o);
  });

  it('disconnectOperator (deactivation, password change) also discards the kept sessions', async () => {
    const live = await connect(a2, 'tab-kicked');
    await live.client.subscribeAsync(topics.operator(ws.id, a2.id), { qos: 1 });
    expect(await broker.disconnectOperator(ws.id, a2.id)).to.equal(1);
    await publish(a2, 'depois de removido');
    const again = await connect(a2, 'tab-kicked');
    expect(again.sessionPresent).to.equal(false);
    await onlyMarkerArrives(again, a2);
  });
});
