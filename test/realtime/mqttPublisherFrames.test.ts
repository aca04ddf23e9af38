import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocketServer, type WebSocket } from 'ws';
import { createMqttPublisher } from '../../api/realtime/mqttPublisher';
import { waitFor } from './mqttClients';

/** The MQTT packets a frame holds: their types, and whether it ends inside one (a frame split a packet). */
function packetsIn(frame: Buffer): { types: number[]; partial: boolean } {
  const types: number[] = [];
  let i = 0;
  while (i < frame.length) {
    let length = 0;
    let multiplier = 1;
    let j = i + 1;
    let digit: number;
    do {
      if (j >= frame.length) return { types, partial: true };
      digit = frame[j++];
      length += (digit & 0x7f) * multiplier;
      multiplier *= 128;
    } while (digit & 0x80);
    if (j + length > frame.length) return { types, partial: true };
    types.push(frame[i] >> 4);
    i = j + length;
  }
  return { types, partial: false };
}

const CONNECT = 1;
const PUBLISH = 3;

/**
 * The worker publishes to the api's embedded broker over WebSocket. mqtt.js' Node transport would send
 * each piece of a packet (header, length, topic, id, payload) as a frame of its own; the publisher's stream
 * sends a packet as one frame, as browsers do. A bare WebSocket peer plays the broker here, answering
 * CONNACK and PUBACK by hand, so the frames are seen as they arrive.
 */
describe('realtime: the MQTT publisher over WebSocket', () => {
  let wss: WebSocketServer;
  let frames: Buffer[];
  let url: string;

  beforeEach(async () => {
    frames = [];
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/mqtt`;
    wss.on('connection', (ws: WebSocket) => {
      ws.on('message', (data: Buffer) => {
        frames.push(data);
        const { types } = packetsIn(data);
        if (types.includes(CONNECT)) ws.send(Buffer.from([0x20, 2, 0, 0]));
        if (types.includes(PUBLISH)) {
          // QoS 1: the packet id follows the topic.
          const topicLength = data.readUInt16BE(2 + (data[1] & 0x80 ? 1 : 0));
          const idAt = 2 + (data[1] & 0x80 ? 1 : 0) + 2 + topicLength;
          ws.send(Buffer.from([0x40, 2, data[idAt], data[idAt + 1]]));
        }
      });
    });
  });
  afterEach(async () => {
    for (const ws of wss.clients) ws.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('sends each packet, CONNECT and a PUBLISH with its whole envelope, as one WebSocket frame', async () => {
    const publisher = createMqttPublisher(url, 'segredo-interno', { ackTimeoutMs: 2000 });
    try {
      await waitFor(() => publisher.connected());
      const text = 'x'.repeat(300);
      expect(await publisher.publish('ws/1/op/2', 'chat.newMessage', { conversationId: 9, text })).to.equal(true);

      expect(frames.map(packetsIn), 'no frame ends inside a packet').to.deep.equal([
        { types: [CONNECT], partial: false },
        { types: [PUBLISH], partial: false },
      ]);
      const publish = frames[1];
      const remaining = (publish[1] & 0x7f) + publish[2] * 128;
      expect(publish.length).to.equal(3 + remaining);
      const topicLength = publish.readUInt16BE(3);
      expect(publish.subarray(5, 5 + topicLength).toString()).to.equal('ws/1/op/2');
      const envelope = JSON.parse(publish.subarray(5 + topicLength + 2).toString()) as { event: string; data: { text: string } };
      expect(envelope.event).to.equal('chat.newMessage');
      expect(envelope.data.text).to.equal(text);
    } finally {
      await publisher.close();
    }
  });

  it('reconnects on a new socket after the broker drops it, and publishes there', async () => {
    const publisher = createMqttPublisher(url, 'segredo-interno', { ackTimeoutMs: 2000 });
    try {
      await waitFor(() => publisher.connected());
      for (const ws of wss.clients) ws.terminate();
      await waitFor(() => !publisher.connected());
      await waitFor(() => publisher.connected(), 5000);
      expect(await publisher.publish('ws/1/all', 'operator.availability', { operatorId: 2 })).to.equal(true);
      expect(frames.map((f) => packetsIn(f).types)).to.deep.equal([[CONNECT], [CONNECT], [PUBLISH]]);
    } finally {
      await publisher.close();
    }
  });
});
