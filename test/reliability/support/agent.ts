import mqtt, { type MqttClient } from 'mqtt';
import type { RealtimeEnvelope } from '../../../api/realtime/publisher';

/**
 * An agent's realtime connection as the UI opens it (real mqtt.js over WebSocket, clean session, QoS 1
 * subscription to the operator's own topic), recording every event it receives. Reconnects by itself
 * every `reconnectMs` like the browser client.
 */
export class Agent {
  readonly events: RealtimeEnvelope[] = [];
  readonly client: MqttClient;
  connects = 0;
  /** SUBACKs received: one per successful (re)connection. */
  subscribed = 0;

  constructor(wsUrl: string, workspaceId: number, operatorId: number, token: string, reconnectMs = 200) {
    this.client = mqtt.connect(wsUrl, {
      username: String(operatorId),
      password: token,
      clientId: `agent_${operatorId}_${Math.random().toString(36).slice(2, 10)}`,
      clean: true,
      reconnectPeriod: reconnectMs,
      connectTimeout: 3000,
      protocolVersion: 4,
    });
    this.client.on('error', () => undefined);
    this.client.on('connect', () => {
      this.connects++;
      this.client.subscribe(`ws/${workspaceId}/op/${operatorId}`, { qos: 1 }, (err) => {
        if (!err) this.subscribed++;
      });
    });
    this.client.on('message', (_topic, payload) => this.events.push(JSON.parse(payload.toString('utf8')) as RealtimeEnvelope));
  }

  /** Resolves once connected and subscribed (SUBACK) `times` times in total. */
  async ready(times = 1, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.subscribed < times || !this.client.connected) {
      if (Date.now() > until) throw new Error('agent did not connect');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Message ids of the chat.newMessage events received, in order (a repeat appears twice). */
  newMessageIds(): number[] {
    return this.events
      .filter((e) => e.event === 'chat.newMessage')
      .map((e) => (e.data as { message?: { id: number } }).message?.id)
      .filter((id): id is number => typeof id === 'number');
  }

  async close(): Promise<void> {
    await this.client.endAsync(true).catch(() => undefined);
  }
}
