import type { Duplex } from 'node:stream';
import WebSocket, { createWebSocketStream } from 'ws';

interface Chunk {
  chunk: Buffer | string;
  encoding: BufferEncoding;
}
type WithWritev = Duplex & { _writev?: (chunks: Chunk[], callback: (err?: Error | null) => void) => void };

const toBuffer = ({ chunk, encoding }: Chunk): Buffer => (typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);

/**
 * mqtt-packet writes each packet in pieces (fixed header, length, topic, id, payload) between `cork()` and an
 * `uncork()` on the next tick, and ws's stream (`createWebSocketStream`) has no `_writev`: on uncork every
 * piece left as a WebSocket frame of its own, each a socket write (under QoS 1 load 64% of the embedded
 * broker's CPU went to them) and a frame for the peer to parse. With `_writev`, what was corked together goes
 * out as one frame, as mqtt.js' browser transport already sends. MQTT over WebSocket lets a frame hold parts
 * of packets or several of them (MQTT 3.1.1 §6: the receiver must not assume packets align with frames).
 */
export function oneFramePerFlush<T extends Duplex>(stream: T): T {
  const writable = stream as WithWritev;
  writable._writev = (chunks, callback) => {
    const data = chunks.length === 1 ? toBuffer(chunks[0]) : Buffer.concat(chunks.map(toBuffer));
    // ws's stream's own _write: it waits for the socket to open, then sends one frame.
    writable._write(data, 'binary', callback);
  };
  return stream;
}

/**
 * A stream builder for mqtt.js' `MqttClient` in Node over `ws(s)://`: mqtt.js' own Node transport sends each
 * piece of a packet as a frame (see oneFramePerFlush); this one sends a flush as one frame, as browsers do.
 * A new socket on every (re)connect, as mqtt.js expects of a builder.
 */
export function webSocketStreamBuilder(url: string): () => Duplex {
  return () => {
    const socket = new WebSocket(url, ['mqtt']);
    const stream = oneFramePerFlush(createWebSocketStream(socket));
    socket.on('close', () => stream.destroy());
    return stream;
  };
}
