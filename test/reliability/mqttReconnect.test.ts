import { expect } from 'chai';
import mqtt, { type MqttClient } from 'mqtt';
import { topics, type RealtimeEnvelope } from '../../api/realtime/publisher';
import { connectOutcome, realtimeClientId, SESSION_OPTIONS, type ConnectOutcome } from '../../ui/src/realtime/session';
import { testDatabase } from '../helpers/db';
import { testTemporalAddress } from '../helpers/temporal';
import { ChildApi } from './support/childApi';
import { TcpProxy } from './support/tcpProxy';
import { clientMessageId, eventually, firstContact, makeTeam, sendAsVisitor, type Team } from './support/fixtures';

/**
 * The app's realtime client as ui/src/realtime/RealtimeProvider.tsx opens it (clean: false, one client id
 * for the page, QoS 1, ui/src/realtime/session.ts deciding what a reconnection means), in node with a real
 * mqtt.js, reaching the api through a TCP proxy so its network can really drop.
 */
class AppClient {
  readonly events: RealtimeEnvelope[] = [];
  readonly outcomes: ConnectOutcome[] = [];
  readonly client: MqttClient;
  private connectedBefore = false;

  constructor(url: string, workspaceId: number, operatorId: number, token: string) {
    this.client = mqtt.connect(url, {
      username: String(operatorId),
      password: token,
      clientId: realtimeClientId(operatorId),
      clean: SESSION_OPTIONS.clean,
      reconnectPeriod: 200,
      connectTimeout: 3000,
      protocolVersion: 4,
    });
    this.client.on('error', () => undefined);
    this.client.on('connect', (connack) => {
      this.outcomes.push(connectOutcome(this.connectedBefore, connack.sessionPresent));
      this.connectedBefore = true;
      // The topics of ui/src/realtime/events.ts realtimeTopics (that file needs the DOM types).
      this.client.subscribe([topics.workspace(workspaceId), topics.operator(workspaceId, operatorId)], { qos: SESSION_OPTIONS.qos });
    });
    this.client.on('message', (_t, payload) => this.events.push(JSON.parse(payload.toString('utf8')) as RealtimeEnvelope));
  }

  newMessageIds(): number[] {
    return this.events.filter((e) => e.event === 'chat.newMessage').map((e) => (e.data as { message: { id: number } }).message.id);
  }

  close(): Promise<void> {
    return this.client.endAsync(true).catch(() => undefined);
  }
}

describe('Reliability: an agent whose MQTT connection drops while messages arrive', function () {
  this.timeout(120_000);
  let api: ChildApi;
  let proxy: TcpProxy;
  let team: Team;
  let app: AppClient;

  before(async () => {
    const { url } = await testDatabase();
    api = new ChildApi({ databaseUrl: url, temporalAddress: await testTemporalAddress() });
    await api.start();
    proxy = new TcpProxy('127.0.0.1', api.port);
    await proxy.start();
  });
  after(async () => {
    await app?.close();
    await proxy?.stop();
    await api?.stop();
  });
  beforeEach(async () => {
    if (!api.running) await api.start();
    proxy.restore();
    const { knex } = await testDatabase();
    team = await makeTeam(knex, api);
    await app?.close();
    app = new AppClient(`ws://127.0.0.1:${proxy.port}/mqtt`, team.ws.id, team.owner.id, team.owner.token);
    await eventually(async () => app.client.connected && app.outcomes.length === 1, 10_000, 'first connection');
  });

  async function dropAndSend(count: number, visitor: Awaited<ReturnType<typeof firstContact>>): Promise<number[]> {
    proxy.cut('refuse');
    await eventually(async () => !app.client.connected, 5000, 'client noticed the drop');
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await sendAsVisitor(api, team, visitor, `enquanto caído ${i}`, clientMessageId());
      expect(res.status).to.equal(201);
      ids.push(res.body.data.message.id);
    }
    return ids;
  }

  it('a short drop: the broker kept the session and the client gets every missed event once after it reconnects, without refetching', async () => {
    const visitor = await firstContact(api, team);
    await eventually(async () => app.newMessageIds().includes(visitor.messageId), 10_000, 'live event before the drop');
    const missed = await dropAndSend(5, visitor);
    await new Promise((r) => setTimeout(r, 1000));
    expect(app.newMessageIds()).to.not.include.members(missed);

    proxy.restore();
    await eventually(async () => missed.every((id) => app.newMessageIds().includes(id)), 10_000, 'missed events replayed');
    expect(app.outcomes).to.deep.equal(['first', 'resumed']);
    await new Promise((r) => setTimeout(r, 500));
    for (const id of missed) expect(app.newMessageIds().filter((m) => m === id), `message ${id}`).to.have.length(1);
    // Live again: the next message arrives normally.
    const after = await sendAsVisitor(api, team, visitor, 'de volta', clientMessageId());
    await eventually(async () => app.newMessageIds().includes(after.body.data.message.id), 10_000, 'live after reconnect');
  });

  it('a drop across an api restart: no session to resume, so the client is told to refetch, and the refetch has every missed message', async () => {
    const visitor = await firstContact(api, team);
    await eventually(async () => app.newMessageIds().includes(visitor.messageId), 10_000, 'live event before the drop');
    const lastSeen = app.events[app.events.length - 1];
    proxy.cut('refuse');
    await api.kill();
    await api.start();
    const missed: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await sendAsVisitor(api, team, visitor, `depois do reinício ${i}`, clientMessageId());
      missed.push(res.body.data.message.id);
    }
    proxy.restore();
    await eventually(async () => app.outcomes.length === 2, 10_000, 'reconnected');
    expect(app.outcomes).to.deep.equal(['first', 'refetch']);

    // The refetch of the app: conversations changed since the last event, then their messages.
    const since = Date.parse(lastSeen.at) - 1000;
    const list = await api.request('GET', '/api/inbox?segmentId=all', { token: team.owner.token });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    const changed = (list.body.data as { id: number; lastMessageAt: string }[]).filter((c) => Date.parse(c.lastMessageAt) >= since);
    const refetched: number[] = [];
    for (const c of changed) {
      const messages = await api.request('GET', `/api/inbox/messages?id=${c.id}`, { token: team.owner.token });
      refetched.push(...(messages.body.data as { id: number }[]).map((m) => m.id));
    }
    expect(refetched).to.include.members(missed);
  });
});
