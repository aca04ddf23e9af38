import { MqttConnectError, MqttLite, type SocketLike } from './mqttLite';
import type { Envelope } from './types';
import type { VisitorSession } from './store';

export interface RealtimeOptions {
  wsUrl: string;
  identifier: string;
  session: VisitorSession;
  onEvent: (envelope: Envelope) => void;
  /** Connected and subscribed; `again` is true after a reconnect (time to refetch what was missed). */
  onOnline: (again: boolean) => void;
  onOffline: () => void;
  /** The broker refused the session token (channel deleted?); the widget checks with the API before forgetting it. */
  onRefused: () => void;
}

const MAX_BACKOFF_MS = 30_000;
const randomId = () => Math.random().toString(36).slice(2, 10);

/**
 * The visitor's live connection: one MQTT session on `widget/{identifier}/{visitorId}`, reconnected with
 * exponential backoff and jitter (1 s, 2 s, 4 s … 30 s), at once when the browser says it is online again.
 */
export class VisitorRealtime {
  private client: MqttLite | undefined;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private everOnline = false;
  private stopped = false;
  private readonly retryNow = () => {
    if (this.client || this.stopped) return;
    clearTimeout(this.timer);
    this.attempt = 0;
    void this.open();
  };

  constructor(private readonly o: RealtimeOptions) {}

  start(): void {
    addEventListener('online', this.retryNow);
    void this.open();
  }

  /** Tries again after a refusal the API did not confirm. */
  retryLater(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    removeEventListener('online', this.retryNow);
    clearTimeout(this.timer);
    this.client?.end();
    this.client = undefined;
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    const { session } = this.o;
    const client = new MqttLite({
      url: this.o.wsUrl,
      clientId: `w-${session.visitorId.slice(0, 8)}-${randomId()}`,
      username: `visitor:${session.visitorId}`,
      password: session.token,
      keepalive: 30,
      socketFactory: (url, protocol) => new WebSocket(url, protocol) as unknown as SocketLike,
      onMessage: (_topic, payload) => {
        try {
          this.o.onEvent(JSON.parse(new TextDecoder().decode(payload)) as Envelope);
        } catch {
          /* not an event of ours */
        }
      },
      onClose: () => {
        if (this.client !== client || this.stopped) return;
        this.client = undefined;
        this.o.onOffline();
        this.schedule();
      },
    });
    this.client = client;
    try {
      await client.connect();
      const granted = await client.subscribe(`widget/${this.o.identifier}/${session.visitorId}`, 1);
      if (granted === 0x80) throw new MqttConnectError('subscribe refused', 5);
    } catch (err) {
      // Detach first, so this failure is handled here once and not again by onClose.
      if (this.client === client) this.client = undefined;
      client.end();
      if (this.stopped) return;
      if (err instanceof MqttConnectError && (err.code === 4 || err.code === 5)) {
        this.o.onRefused();
        return;
      }
      this.o.onOffline();
      this.schedule();
      return;
    }
    const again = this.everOnline;
    this.everOnline = true;
    this.attempt = 0;
    this.o.onOnline(again);
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempt++);
    this.timer = setTimeout(() => void this.open(), base / 2 + Math.random() * (base / 2));
  }
}
