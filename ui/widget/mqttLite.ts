/**
 * A minimal MQTT 3.1.1 client over WebSocket for the widget: CONNECT, SUBSCRIBE, receiving PUBLISH at
 * QoS 0 and 1 (PUBACK), PINGREQ and DISCONNECT. It never publishes: the broker refuses that to visitors.
 * mqtt.js does all of this and much more, at about twice the size of the whole widget (docs/widget.md).
 *
 * No DOM types: the socket is whatever `socketFactory` returns (the browser's WebSocket, or `ws` in tests).
 */

/** The part of the WebSocket API this client uses. */
export interface SocketLike {
  binaryType: string;
  readyState: number;
  send(data: Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
export type SocketFactory = (url: string, protocol: string) => SocketLike;

export interface MqttLiteOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** Seconds; a PINGREQ goes out at this interval, and the session is dropped if no PINGRESP comes back in it. */
  keepalive?: number;
  /** CONNECT timeout, ms. */
  connectTimeoutMs?: number;
  socketFactory: SocketFactory;
  onMessage?: (topic: string, payload: Uint8Array) => void;
  /** The session ended (network, broker, keepalive or end()); not called when connect() itself failed. */
  onClose?: () => void;
}

/** A refused CONNECT: `code` is the CONNACK return code (4 bad credentials, 5 not authorized), 0 for a transport failure. */
export class MqttConnectError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'MqttConnectError';
  }
}

/** Control packet types (MQTT 3.1.1 §2.2.1). */
const Packet = {
  CONNECT: 1,
  CONNACK: 2,
  PUBLISH: 3,
  PUBACK: 4,
  SUBSCRIBE: 8,
  SUBACK: 9,
  PINGREQ: 12,
  PINGRESP: 13,
  DISCONNECT: 14,
} as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** MQTT's variable-length "remaining length" (1 to 4 bytes, 7 bits each). */
export function encodeLength(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

function utf8(s: string): number[] {
  const bytes = encoder.encode(s);
  return [bytes.length >> 8, bytes.length & 0xff, ...bytes];
}

function packet(header: number, body: number[]): Uint8Array<ArrayBuffer> {
  return Uint8Array.from([header, ...encodeLength(body.length), ...body]);
}

export function connectPacket(o: Pick<MqttLiteOptions, 'clientId' | 'username' | 'password'>, keepalive: number): Uint8Array<ArrayBuffer> {
  // Clean session always: the broker keeps no queue for the widget, which refetches after a reconnect.
  let flags = 0x02;
  if (o.username !== undefined) flags |= 0x80;
  if (o.password !== undefined) flags |= 0x40;
  const body = [...utf8('MQTT'), 4, flags, keepalive >> 8, keepalive & 0xff, ...utf8(o.clientId)];
  if (o.username !== undefined) body.push(...utf8(o.username));
  if (o.password !== undefined) body.push(...utf8(o.password));
  return packet(Packet.CONNECT << 4, body);
}

export function subscribePacket(packetId: number, topic: string, qos: 0 | 1): Uint8Array<ArrayBuffer> {
  // SUBSCRIBE's fixed header has the reserved flags 0b0010.
  return packet((Packet.SUBSCRIBE << 4) | 0x02, [packetId >> 8, packetId & 0xff, ...utf8(topic), qos]);
}

export interface ParsedPacket {
  type: number;
  flags: number;
  body: Uint8Array;
}

/**
 * Splits a byte stream into MQTT packets. WebSocket frames usually carry one packet each, but the
 * standard allows a packet across frames and several in one, so bytes are buffered until complete.
 */
export class PacketReader {
  private buffer = new Uint8Array(0);

  push(chunk: Uint8Array): ParsedPacket[] {
    const merged = new Uint8Array(this.buffer.length + chunk.length);
    merged.set(this.buffer);
    merged.set(chunk, this.buffer.length);
    this.buffer = merged;
    const out: ParsedPacket[] = [];
    for (;;) {
      if (this.buffer.length < 2) break;
      let length = 0;
      let multiplier = 1;
      let pos = 1;
      let complete = false;
      while (pos < this.buffer.length && pos <= 4) {
        const byte = this.buffer[pos++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) {
        if (pos > 4) throw new Error('MQTT: comprimento de pacote inválido');
        break;
      }
      if (this.buffer.length < pos + length) break;
      const first = this.buffer[0]!;
      out.push({ type: first >> 4, flags: first & 0x0f, body: this.buffer.slice(pos, pos + length) });
      this.buffer = this.buffer.slice(pos + length);
    }
    return out;
  }
}

function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

export class MqttLite {
  private socket: SocketLike | undefined;
  private readonly reader = new PacketReader();
  private nextPacketId = 1;
  private readonly pendingSubs = new Map<number, (code: number) => void>();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private awaitingPong = false;
  private connected = false;
  private closed = false;

  constructor(private readonly options: MqttLiteOptions) {}

  get isConnected(): boolean {
    return this.connected;
  }

  /** Opens the socket and resolves on an accepted CONNACK; rejects with MqttConnectError otherwise. */
  connect(): Promise<void> {
    const keepalive = this.options.keepalive ?? 30;
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: MqttConnectError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.teardown(false);
        reject(err);
      };
      const timer = setTimeout(() => fail(new MqttConnectError('MQTT: tempo esgotado ao conectar', 0)), this.options.connectTimeoutMs ?? 10_000);
      let socket: SocketLike;
      try {
        socket = this.options.socketFactory(this.options.url, 'mqtt');
      } catch {
        fail(new MqttConnectError('MQTT: não foi possível abrir a conexão', 0));
        return;
      }
      this.socket = socket;
      socket.binaryType = 'arraybuffer';
      socket.onopen = () => socket.send(connectPacket(this.options, keepalive));
      socket.onerror = () => undefined;
      socket.onclose = () => {
        if (!settled) fail(new MqttConnectError('MQTT: conexão encerrada', 0));
        else this.teardown(true);
      };
      socket.onmessage = (ev) => {
        const bytes = toBytes(ev.data);
        if (!bytes) return;
        let packets: ParsedPacket[];
        try {
          packets = this.reader.push(bytes);
        } catch {
          socket.close();
          return;
        }
        for (const p of packets) {
          if (!settled && p.type === Packet.CONNACK) {
            const code = p.body[1] ?? 255;
            if (code !== 0) {
              fail(new MqttConnectError(`MQTT: conexão recusada (${code})`, code));
              return;
            }
            settled = true;
            clearTimeout(timer);
            this.connected = true;
            this.startKeepalive(keepalive);
            resolve();
            continue;
          }
          if (settled) this.handle(p);
        }
      };
    });
  }

  /** Resolves with the SUBACK return code: the granted QoS, or 0x80 when the broker refused the topic. */
  subscribe(topic: string, qos: 0 | 1 = 1): Promise<number> {
    if (!this.connected || !this.socket) return Promise.reject(new Error('MQTT: não conectado'));
    const id = this.nextPacketId;
    this.nextPacketId = (this.nextPacketId % 0xffff) + 1;
    return new Promise((resolve) => {
      this.pendingSubs.set(id, resolve);
      this.socket!.send(subscribePacket(id, topic, qos));
    });
  }

  /** Sends DISCONNECT and closes; onClose is called. */
  end(): void {
    if (this.socket && this.connected) {
      try {
        this.socket.send(Uint8Array.from([Packet.DISCONNECT << 4, 0]));
      } catch {
        /* already closing */
      }
    }
    this.teardown(true);
  }

  private handle(p: ParsedPacket): void {
    switch (p.type) {
      case Packet.PUBLISH: {
        const qos = (p.flags >> 1) & 0x03;
        const topicLength = (p.body[0]! << 8) | p.body[1]!;
        const topic = decoder.decode(p.body.subarray(2, 2 + topicLength));
        let offset = 2 + topicLength;
        if (qos > 0) {
          const hi = p.body[offset]!;
          const lo = p.body[offset + 1]!;
          offset += 2;
          // QoS 1: acknowledge so the broker stops resending. QoS 2 is never granted (subscribe asks ≤ 1).
          if (qos === 1) this.socket?.send(Uint8Array.from([Packet.PUBACK << 4, 2, hi, lo]));
        }
        this.options.onMessage?.(topic, p.body.subarray(offset));
        break;
      }
      case Packet.SUBACK: {
        const id = (p.body[0]! << 8) | p.body[1]!;
        const done = this.pendingSubs.get(id);
        this.pendingSubs.delete(id);
        done?.(p.body[2] ?? 0x80);
        break;
      }
      case Packet.PINGRESP:
        this.awaitingPong = false;
        break;
      default:
        break;
    }
  }

  private startKeepalive(seconds: number): void {
    if (seconds <= 0) return;
    this.pingTimer = setInterval(() => {
      // No answer to the last ping within a whole interval: the connection is dead even if the socket
      // has not noticed (sleeping laptop, dropped Wi-Fi).
      if (this.awaitingPong) {
        this.socket?.close();
        this.teardown(true);
        return;
      }
      this.awaitingPong = true;
      try {
        this.socket?.send(Uint8Array.from([Packet.PINGREQ << 4, 0]));
      } catch {
        this.teardown(true);
      }
    }, seconds * 1000);
  }

  private teardown(notify: boolean): void {
    if (this.closed) return;
    this.closed = true;
    const wasConnected = this.connected;
    this.connected = false;
    clearInterval(this.pingTimer);
    for (const done of this.pendingSubs.values()) done(0x80);
    this.pendingSubs.clear();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onmessage = null;
      socket.onclose = null;
      socket.onopen = null;
      socket.onerror = null;
      try {
        socket.close();
      } catch {
        /* already closed */
      }
    }
    if (notify && wasConnected) this.options.onClose?.();
  }
}
