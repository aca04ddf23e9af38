import net from 'node:net';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { WebSocket } from 'ws';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { createMqttPublisher, defaultMqttUrl } from '../../api/realtime/mqttPublisher';
import { Clients, closed, inbox, sleep, subscribeCodes, waitFor, type Received } from './mqttClients';

/** A workspace token like signAccessToken's, with a chosen expiry (epoch seconds). */
async function tokenExpiringAt(secret: string, op: TestOperator, exp: number): Promise<string> {
  return new SignJWT({ ws: op.workspaceId, lvl: op.accessLevel, ov: 0, mv: 0 })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(op.id))
    .setIssuedAt()
    .setIssuer('balcao')
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

describe('realtime: embedded MQTT broker at /mqtt', () => {
  let api: TestApi;
  let clients: Clients;
  let wsA: TestWorkspace;
  let wsB: TestWorkspace;
  let a1: TestOperator;
  let a2: TestOperator;
  let b1: TestOperator;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
    wsA = await makeWorkspace(api.deps.knex);
    wsB = await makeWorkspace(api.deps.knex);
    a1 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 10);
    a2 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 3);
    b1 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsB, 10);
  });
  afterEach(() => clients.endAll());
  after(() => api.close());

  const op = (o: TestOperator) => clients.connect(String(o.id), o.token);

  it('delivers events published by the api on the operator topic and the workspace topic, as {event, data, id, at}', async () => {
    const client = await op(a1);
    const received = inbox(client);
    expect(await subscribeCodes(client, [topics.operator(wsA.id, a1.id), topics.workspace(wsA.id)])).to.deep.equal([1, 1]);

    await api.broker.publisher.publish(topics.operator(wsA.id, a1.id), 'chat.newMessage', { conversationId: 7 });
    await api.broker.publisher.publish(topics.workspace(wsA.id), 'channel.status', { channelId: 3, status: 'connected' });
    await waitFor(() => received.length === 2);

    const [first, second] = received;
    expect(first.topic).to.equal(topics.operator(wsA.id, a1.id));
    expect(first.envelope).to.have.all.keys('event', 'data', 'id', 'at');
    expect(first.envelope).to.deep.include({ event: 'chat.newMessage', data: { conversationId: 7 } });
    expect(second.topic).to.equal(topics.workspace(wsA.id));
    expect(second.envelope).to.deep.include({ event: 'channel.status', data: { channelId: 3, status: 'connected' } });
    expect(new Date(first.envelope.at).toISOString()).to.equal(first.envelope.at);
    expect(first.envelope.id < second.envelope.id, 'ids sort in publication order').to.equal(true);
  });

  it('refuses at CONNECT a forged or expired token, a token of another operator, a deactivated member and a missing password', async () => {
    expect(await clients.refusal(String(a1.id), `${a1.token}x`)).to.equal(4);
    const expired = await tokenExpiringAt(api.config.jwtSecret, a1, Math.floor(Date.now() / 1000) - 60);
    expect(await clients.refusal(String(a1.id), expired)).to.equal(4);
    expect(await clients.refusal(String(a2.id), a1.token), 'username must be the token operator').to.equal(4);
    expect(await clients.refusal('', a1.token)).to.equal(4);
    expect(await clients.refusal(String(a1.id), '')).to.equal(4);
    expect(await clients.refusal('internal', 'not-the-internal-secret')).to.equal(4);
    expect(await clients.refusal('visitor:abc', 'whatever'), 'a visitor with an unknown token is refused').to.equal(5);

    const gone = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 3, { isActive: false });
    expect(await clients.refusal(String(gone.id), gone.token)).to.equal(4);

    // The same credentials, well formed, are accepted: the refusals above are about the credential.
    await op(a1);
  });

  it('refuses client ids and usernames containing #, + or /', async () => {
    for (const id of ['a/b', 'a#', 'a+b']) {
      expect(await clients.refusal(String(a1.id), a1.token, id), id).to.equal(2);
    }
    for (const username of [`${a1.id}/x`, `${a1.id}#`, `+${a1.id}`]) {
      expect(await clients.refusal(username, a1.token), username).to.equal(4);
    }
  });

  it("refuses subscriptions to another workspace, another operator or any wildcard, and never delivers their events", async () => {
    const client = await op(a1);
    const received = inbox(client);
    const refused = [
      topics.operator(wsB.id, b1.id),
      topics.workspace(wsB.id),
      topics.operator(wsA.id, a2.id),
      `ws/${wsA.id}/#`,
      `ws/+/all`,
      '#',
      `ws/${wsA.id}/op/+`,
      '$SYS/#',
    ];
    expect(await subscribeCodes(client, [...refused, topics.operator(wsA.id, a1.id)])).to.deep.equal([...refused.map(() => 128), 1]);

    const other = await op(b1);
    const otherReceived = inbox(other);
    await subscribeCodes(other, [topics.workspace(wsB.id)]);

    await api.broker.publisher.publish(topics.operator(wsB.id, b1.id), 'chat.newMessage', { secret: 'B' });
    await api.broker.publisher.publish(topics.workspace(wsB.id), 'channel.status', { secret: 'B' });
    await api.broker.publisher.publish(topics.operator(wsA.id, a2.id), 'chat.newMessage', { secret: 'A2' });
    await api.broker.publisher.publish(topics.operator(wsA.id, a1.id), 'chat.newMessage', { mine: true });

    // Presence changes (member.availability, docs/assignment.md) go to each workspace's own team: left out here.
    const notPresence = (list: Received[]) => list.filter((r) => r.envelope.event !== 'member.availability');
    await waitFor(() => notPresence(received).length >= 1 && notPresence(otherReceived).length >= 1);
    await sleep(200);
    expect(notPresence(received).map((r) => r.envelope.data)).to.deep.equal([{ mine: true }]);
    expect(notPresence(otherReceived).map((r) => r.envelope.data), 'workspace B does receive its own event').to.deep.equal([{ secret: 'B' }]);
    expect(otherReceived.filter((r) => r.envelope.event === 'member.availability').map((r) => (r.envelope.data as { operatorId: number }).operatorId), 'only B members').to.not.include(a1.id);
  });

  it("drops an operator's PUBLISH (nobody receives it) and closes that connection", async () => {
    const listener = await op(a2);
    const received = inbox(listener);
    await subscribeCodes(listener, [topics.workspace(wsA.id)]);

    const talker = await op(a1);
    const gone = closed(talker);
    talker.publish(topics.workspace(wsA.id), JSON.stringify({ event: 'chat.newMessage', data: { forged: true }, id: 'x', at: 'y' }), { qos: 1 });
    await gone;
    await sleep(300);
    // The talker's own presence changes (member.availability) are the api's events, not the forged one.
    const forgedOrReal = () => received.filter((r) => r.envelope.event !== 'member.availability');
    expect(forgedOrReal()).to.deep.equal([]);

    await api.broker.publisher.publish(topics.workspace(wsA.id), 'channel.status', { real: true });
    await waitFor(() => forgedOrReal().length === 1);
    expect(forgedOrReal()[0].envelope.data).to.deep.equal({ real: true });
  });

  it('lets another process publish with createMqttPublisher and the internal credential', async () => {
    const client = await op(a1);
    const received = inbox(client);
    await subscribeCodes(client, [topics.operator(wsA.id, a1.id)]);

    const publisher = createMqttPublisher(defaultMqttUrl(api.config), api.config.mqttInternalPassword);
    try {
      await publisher.publish(topics.operator(wsA.id, a1.id), 'chat.transfer', { from: 'worker' });
      await waitFor(() => received.length === 1);
      expect(received[0].envelope).to.deep.include({ event: 'chat.transfer', data: { from: 'worker' } });
      expect(publisher.connected()).to.equal(true);
    } finally {
      await publisher.close();
    }
  });

  it('a publisher with a wrong internal password neither connects nor delivers, and does not throw', async () => {
    const client = await op(a1);
    const received = inbox(client);
    await subscribeCodes(client, [topics.operator(wsA.id, a1.id)]);

    const publisher = createMqttPublisher(defaultMqttUrl(api.config), 'wrong', { ackTimeoutMs: 300 });
    try {
      await publisher.publish(topics.operator(wsA.id, a1.id), 'chat.transfer', { from: 'intruder' });
      await sleep(200);
      expect(publisher.connected()).to.equal(false);
      expect(received).to.deep.equal([]);
    } finally {
      await publisher.close();
    }
  });

  it("disconnectOperator closes every session of that operator in that workspace, and only those", async () => {
    const first = await op(a1);
    const second = await op(a1);
    const bystander = await op(a2);
    const bothClosed = Promise.all([closed(first), closed(second)]);

    expect(await api.broker.disconnectOperator(wsA.id, a1.id)).to.equal(2);
    await bothClosed;
    await sleep(100);
    expect(bystander.connected).to.equal(true);
    expect(await api.broker.disconnectOperator(wsB.id, a1.id), 'another workspace holds no session of theirs').to.equal(0);
  });

  it('ends a session when its token expires', async () => {
    const soon = await tokenExpiringAt(api.config.jwtSecret, a1, Math.floor(Date.now() / 1000) + 2);
    const client = await clients.connect(String(a1.id), soon);
    await closed(client);
  });

  it("refuses a client id in use by another operator instead of taking their session over", async () => {
    const owner = await clients.connect(String(a1.id), a1.token, 'shared-id');
    expect(await clients.refusal(String(a2.id), a2.token, 'shared-id')).to.equal(2);
    expect(owner.connected).to.equal(true);
  });

  it('refuses persistent sessions to anyone but operators (test/realtime/persistentSessions.test.ts has theirs)', async () => {
    const { default: mqtt } = await import('mqtt');
    const client = mqtt.connect(clients.wsUrl, { username: 'internal', password: api.config.mqttInternalPassword, clean: false, clientId: 'persistent-1', reconnectPeriod: 0 });
    try {
      const code = await new Promise<number>((resolve) => {
        client.on('error', (err) => resolve((err as Error & { code?: number }).code ?? -1));
        client.on('connect', () => resolve(0));
      });
      expect(code).to.equal(2);
    } finally {
      await client.endAsync(true);
    }
  });

  it('answers 404 to WebSocket upgrades on other paths and keeps serving HTTP', async () => {
    const port = new URL(api.url).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'GET /api/other HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        );
      });
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).to.match(/^HTTP\/1\.1 404/);
    const http = await api.request('GET', '/api/label');
    expect(http.status, 'plain HTTP requests still reach the app').to.equal(401);
  });

  it('sends each packet in one WebSocket frame (mqtt-packet writes it in pieces), a PUBLISH whole with its payload', async () => {
    const str = (v: string) => {
      const b = Buffer.from(v, 'utf8');
      return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
    };
    const packet = (first: number, body: Buffer) => {
      const length: number[] = [];
      let n = body.length;
      do {
        let digit = n % 128;
        n = Math.floor(n / 128);
        if (n > 0) digit |= 0x80;
        length.push(digit);
      } while (n > 0);
      return Buffer.concat([Buffer.from([first, ...length]), body]);
    };
    const raw = new WebSocket(clients.wsUrl, 'mqtt');
    const frames: Buffer[] = [];
    raw.on('message', (data: Buffer) => frames.push(data));
    await new Promise((resolve, reject) => {
      raw.once('open', resolve);
      raw.once('error', reject);
    });
    try {
      // CONNECT (3.1.1, clean session, username and password), then SUBSCRIBE at QoS 1 to the operator topic.
      const connect = Buffer.concat([str('MQTT'), Buffer.from([4, 0xc2, 0, 60]), str(`raw_${a1.id}_${Date.now()}`), str(String(a1.id)), str(a1.token)]);
      raw.send(packet(0x10, connect));
      await waitFor(() => frames.length === 1);
      expect([...frames[0]]).to.deep.equal([0x20, 2, 0, 0]);
      const topic = topics.operator(wsA.id, a1.id);
      raw.send(packet(0x82, Buffer.concat([Buffer.from([0, 1]), str(topic), Buffer.from([1])])));
      await waitFor(() => frames.length === 2);
      expect([...frames[1]]).to.deep.equal([0x90, 3, 0, 1, 1]);

      await api.broker.publisher.publish(topic, 'chat.newMessage', { conversationId: 9, text: 'x'.repeat(300) });
      await waitFor(() => frames.length >= 3);
      await sleep(100);
      expect(frames, 'one frame for the PUBLISH').to.have.length(3);
      const publish = frames[2];
      expect(publish[0] & 0xf0).to.equal(0x30);
      // Remaining length (two bytes for this size), then the topic, the packet id and the whole envelope.
      const remaining = (publish[1] & 0x7f) + publish[2] * 128;
      expect(publish.length).to.equal(3 + remaining);
      const topicLength = publish.readUInt16BE(3);
      expect(publish.subarray(5, 5 + topicLength).toString()).to.equal(topic);
      const envelope = JSON.parse(publish.subarray(5 + topicLength + 2).toString()) as { event: string; data: { conversationId: number } };
      expect(envelope.event).to.equal('chat.newMessage');
      expect(envelope.data.conversationId).to.equal(9);
    } finally {
      raw.terminate();
    }
  });

  it('survives garbage on the MQTT socket and abrupt disconnects', async () => {
    const raw = new WebSocket(clients.wsUrl, 'mqtt');
    await new Promise((resolve, reject) => {
      raw.once('open', resolve);
      raw.once('error', reject);
    });
    const done = new Promise((resolve) => raw.once('close', resolve));
    raw.send(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x13, 0x37]));
    await done;

    const half = new WebSocket(clients.wsUrl, 'mqtt');
    await new Promise((resolve) => half.once('open', resolve));
    half.terminate();

    const client = await op(a1);
    expect(client.connected).to.equal(true);
    expect(await api.broker.healthy()).to.equal(true);
  });
});
