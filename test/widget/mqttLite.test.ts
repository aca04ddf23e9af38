import { expect } from 'chai';
import { WebSocket } from 'ws';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { Clients, sleep, waitFor } from '../realtime/mqttClients';
import { MqttConnectError, MqttLite, PacketReader, encodeLength, type MqttLiteOptions, type SocketLike } from '../../ui/widget/mqttLite';
import { firstContact, makeWidget, type TestVisitor, type TestWidget } from './helpers';

describe('widget: mqttLite, the minimal MQTT 3.1.1 client, against the real broker', () => {
  let api: TestApi;
  let widget: TestWidget;
  let visitor: TestVisitor;
  let internal: Clients;
  const open: MqttLite[] = [];

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    widget = await makeWidget(api, await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10));
    visitor = await firstContact(api, widget);
    internal = new Clients(api.url);
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.end();
    await internal.endAll();
  });
  after(() => api.close());

  const topic = () => topics.widget(widget.identifier, visitor.id);
  function client(overrides: Partial<MqttLiteOptions> = {}): { mqtt: MqttLite; messages: Array<{ topic: string; text: string }>; closes: number[] } {
    const messages: Array<{ topic: string; text: string }> = [];
    const closes: number[] = [];
    const mqtt = new MqttLite({
      url: `${api.url.replace(/^http/, 'ws')}/mqtt`,
      clientId: `lite-${Math.random().toString(36).slice(2, 10)}`,
      username: `visitor:${visitor.id}`,
      password: visitor.token,
      socketFactory: (url, protocol) => new WebSocket(url, protocol) as unknown as SocketLike,
      onMessage: (t, payload) => messages.push({ topic: t, text: new TextDecoder().decode(payload) }),
      onClose: () => closes.push(Date.now()),
      ...overrides,
    });
    open.push(mqtt);
    return { mqtt, messages, closes };
  }

  it('connects as a visitor, subscribes at QoS 1 and receives QoS 1 and QoS 0 publishes, small and large', async () => {
    const { mqtt, messages } = client();
    await mqtt.connect();
    expect(mqtt.isConnected).to.equal(true);
    expect(await mqtt.subscribe(topic(), 1)).to.equal(1);

    await api.broker.publisher.publish(topic(), 'chat.widgetNewMessage', { id: 1, content: [{ insert: 'Olá! 👋\n' }] });
    const publisher = await internal.connect('internal', api.config.mqttInternalPassword);
    const big = 'x'.repeat(70_000);
    await publisher.publishAsync(topic(), JSON.stringify({ event: 'chat.composing', data: { big } }), { qos: 0 });

    await waitFor(() => messages.length === 2, undefined, 'both publishes');
    expect(messages[0].topic).to.equal(topic());
    expect(JSON.parse(messages[0].text)).to.deep.include({ event: 'chat.widgetNewMessage', data: { id: 1, content: [{ insert: 'Olá! 👋\n' }] } });
    expect(JSON.parse(messages[1].text).data.big).to.have.length(70_000);
    // A QoS 1 message that was not acknowledged would come back as a duplicate; PUBACK stops that.
    await sleep(300);
    expect(messages).to.have.length(2);
  });

  it('gets SUBACK 0x80 for a topic the broker refuses, and the CONNACK code when the CONNECT is refused', async () => {
    const { mqtt } = client();
    await mqtt.connect();
    expect(await mqtt.subscribe(`widget/${widget.identifier}/#`, 1)).to.equal(0x80);

    const refused = client({ password: 'A'.repeat(43) });
    const err = await refused.mqtt.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(MqttConnectError);
    expect((err as MqttConnectError).code).to.equal(5);
    expect(refused.closes, 'a failed connect is no closed session').to.deep.equal([]);
  });

  it('keeps an idle session alive with PINGREQ beyond the broker’s keepalive grace', async () => {
    // 2 s rather than 1: the broker's grace (1.5 × keepalive) then leaves a whole second between a PINGREQ
    // and the broker's deadline, so a busy machine that runs the ping timer late does not lose the session.
    const { mqtt, closes } = client({ keepalive: 2 });
    await mqtt.connect();
    await mqtt.subscribe(topic(), 1);
    // The broker closes a client that stays silent for 1.5 × keepalive (3 s): this waits well beyond it.
    await sleep(4000);
    expect(mqtt.isConnected).to.equal(true);
    expect(closes).to.deep.equal([]);
    await api.broker.publisher.publish(topic(), 'chat.composing', {});
  });

  it('reports the end of a session the broker closed (the same visitor reconnecting with its client id takes it over)', async () => {
    const first = client({ clientId: 'lite-same-id' });
    await first.mqtt.connect();
    const second = client({ clientId: 'lite-same-id' });
    await second.mqtt.connect();
    await waitFor(() => first.closes.length === 1, undefined, 'the first session to be closed');
    expect(first.mqtt.isConnected).to.equal(false);
    expect(second.mqtt.isConnected).to.equal(true);
  });

  it('reads packets split across frames and several packets in one frame', () => {
    const reader = new PacketReader();
    const payload = new Uint8Array(300).fill(7);
    const publish = Uint8Array.from([0x30, ...encodeLength(2 + 1 + payload.length), 0, 1, 0x61, ...payload]);
    const ping = Uint8Array.from([0xd0, 0]);
    const stream = new Uint8Array([...publish, ...ping, ...ping]);
    expect(reader.push(stream.subarray(0, 1))).to.deep.equal([]);
    expect(reader.push(stream.subarray(1, 2))).to.deep.equal([]);
    const parsed = [...reader.push(stream.subarray(2, 200)), ...reader.push(stream.subarray(200))];
    expect(parsed.map((p) => p.type)).to.deep.equal([3, 13, 13]);
    expect(parsed[0].body.length).to.equal(303);
    expect(encodeLength(0)).to.deep.equal([0]);
    expect(encodeLength(127)).to.deep.equal([127]);
    expect(encodeLength(128)).to.deep.equal([0x80, 1]);
    expect(encodeLength(16_383)).to.deep.equal([0xff, 0x7f]);
    expect(encodeLength(2_097_152)).to.deep.equal([0x80, 0x80, 0x80, 1]);
  });
});
