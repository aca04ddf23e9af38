import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { RealtimeEnvelope } from '../../api/realtime/publisher';

/** Real mqtt.js clients over WebSocket against a test api; short timeouts, no reconnection. */
export class Clients {
  private readonly open: MqttClient[] = [];

  constructor(private readonly apiUrl: string) {}

  get wsUrl(): string {
    return `${this.apiUrl.replace(/^http/, 'ws')}/mqtt`;
  }

  private client(username: string, password: string, clientId: string): MqttClient {
    const client = mqtt.connect(this.wsUrl, {
      username,
      password,
      clientId,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 3000,
      protocolVersion: 4,
    });
    client.on('error', () => {});
    this.open.push(client);
    return client;
  }

  /** Resolves once CONNACK accepted the session. */
  connect(username: string, password: string, clientId = `test-${randomBytes(4).toString('hex')}`): Promise<MqttClient> {
    const client = this.client(username, password, clientId);
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(client));
      client.once('error', reject);
      client.once('close', () => reject(new Error('closed before CONNACK')));
    });
  }

  /** The CONNACK return code of a refused CONNECT (fails the test if the session is accepted). */
  refusal(username: string, password: string, clientId = `test-${randomBytes(4).toString('hex')}`): Promise<number> {
    const client = this.client(username, password, clientId);
    return new Promise((resolve, reject) => {
      client.once('connect', () => reject(new Error('CONNECT was accepted')));
      client.once('error', (err) => resolve((err as Error & { code?: number }).code ?? -1));
      client.once('close', () => resolve(-1));
    });
  }

  async endAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
  }
}

/** SUBACK return codes, one per topic, in order (0x80 = refused). */
export function subscribeCodes(client: MqttClient, topics: string[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    client.subscribe(topics, { qos: 1 }, (err, _granted, packet) => {
      const codes = (packet as { granted?: number[] } | undefined)?.granted;
      if (codes) resolve(codes);
      else reject(err ?? new Error('no SUBACK'));
    });
  });
}

export interface Received {
  topic: string;
  envelope: RealtimeEnvelope;
}

/** Everything the client receives from now on. */
export function inbox(client: MqttClient): Received[] {
  const received: Received[] = [];
  client.on('message', (topic, payload) => received.push({ topic, envelope: JSON.parse(payload.toString('utf8')) }));
  return received;
}

/**
 * Polls until `probe` answers something other than undefined/false. The deadline only bounds a test that
 * would fail anyway: it is generous so a busy machine (CI, CPU hogs) cannot fail one that would pass.
 */
export async function waitFor<T>(probe: () => T | undefined, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when the session closes (generous deadline, as waitFor's). */
export function closed(client: MqttClient, timeoutMs = 15_000): Promise<void> {
  if (!client.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`session was not closed within ${timeoutMs} ms`)), timeoutMs);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
