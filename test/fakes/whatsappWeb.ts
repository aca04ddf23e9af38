import type http from 'node:http';
import type { AnyMessageContent, BaileysEventMap, MiscMessageGenerationOptions, proto } from 'baileys';
import type { MakeQrSocket, QrSocket } from '../../activities/channels/whatsapp/qrSocket';
import { waProto } from '../../activities/channels/whatsapp/waProto';
import { FakeQrSocket } from './baileys';
import { LoopbackFake } from './loopbackFake';

/**
 * WhatsApp's side of QR sockets that live in other processes (the cluster's workers): each worker's
 * session activity opens its socket with `loopbackQrSocketFactory(url)` (test/cluster/support/qrWorker.ts),
 * a FakeQrSocket whose opening, sends and end are told to this server, on loopback. What the tests read:
 * which process opened a line's socket and whether it came with a linked session (`creds.me` read back from
 * PostgreSQL: resumed, no QR), and every message sent through a socket, with the process that sent it.
 *
 * Protocol (JSON over POST): `/open {channelId, pid, linked}` → `{session, me, events}`, where `me` is the
 * device a new session links as (the phone read the QR) and `events` are Baileys events the socket emits
 * once open (e.g. a customer's `messages.upsert`); `/send {session, channelId, pid, jid, content, messageId}`;
 * `/end {session}`.
 */
export interface WebSession {
  session: number;
  channelId: number;
  pid: number;
  /** The socket was made with the line's stored creds (`creds.me`): a resumed session. */
  linked: boolean;
  openedAt: number;
  endedAt?: number;
}

export interface WebSend {
  session: number;
  channelId: number;
  pid: number;
  jid: string;
  content: unknown;
  messageId: string;
  at: number;
}

export type WebEvent = { event: 'messages.upsert'; arg: { type: 'notify' | 'append'; messages: Record<string, unknown>[] } };

export const FAKE_DEVICE = { id: '5511999990000:7@s.whatsapp.net', lid: '99887766:7@lid' };

export class WhatsappWebFake extends LoopbackFake {
  readonly sessions: WebSession[] = [];
  readonly sent: WebSend[] = [];
  /** Events a line's socket emits once open, by channel id (asked at each opening). */
  onOpen: (channelId: number, linked: boolean) => WebEvent[] = () => [];

  sessionsOf(channelId: number): WebSession[] {
    return this.sessions.filter((s) => s.channelId === channelId);
  }

  sentOn(channelId: number): WebSend[] {
    return this.sent.filter((s) => s.channelId === channelId);
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    const answer = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    switch (req.url) {
      case '/open': {
        const s: WebSession = { session: this.sessions.length + 1, channelId: Number(body.channelId), pid: Number(body.pid), linked: !!body.linked, openedAt: Date.now() };
        this.sessions.push(s);
        return answer({ session: s.session, me: FAKE_DEVICE, events: this.onOpen(s.channelId, s.linked) });
      }
      case '/send':
        this.sent.push({ ...(body as Omit<WebSend, 'at'>), at: Date.now() });
        return answer({ ok: true });
      case '/end': {
        const s = this.sessions.find((x) => x.session === Number(body.session));
        if (s) s.endedAt ??= Date.now();
        return answer({ ok: true });
      }
      default:
        res.writeHead(404).end();
    }
  }
}

async function post<T>(base: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`whatsapp web fake: ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/** A socket of this process whose opening, sends and end reach the WhatsappWebFake at `base`. */
class LoopbackQrSocket extends FakeQrSocket implements QrSocket {
  private ended = false;
  constructor(
    private readonly base: string,
    private readonly session: number,
    private readonly channelId: number,
  ) {
    super();
  }

  override async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<proto.IWebMessageInfo | undefined> {
    const sent = await super.sendMessage(jid, content, options);
    await post(this.base, '/send', { session: this.session, channelId: this.channelId, pid: process.pid, jid, content, messageId: sent?.key?.id });
    return sent;
  }

  /** As Baileys' `end`: the close event, once. */
  end(error: Error | undefined): void {
    if (this.ended) return;
    this.ended = true;
    void post(this.base, '/end', { session: this.session }).catch(() => undefined);
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }
}

/**
 * The socket factory of a worker whose WhatsApp is the WhatsappWebFake at `base`: a line without a linked
 * device links as `me` (as if the phone read the QR: creds saved through `creds.update`), then the socket
 * opens and emits what the fake asked for.
 */
export function loopbackQrSocketFactory(base: string): MakeQrSocket {
  return async ({ line, auth }) => {
    const linked = !!auth.state.creds.me;
    const opened = await post<{ session: number; me: { id: string; lid: string }; events: WebEvent[] }>(base, '/open', { channelId: line.channelId, pid: process.pid, linked });
    const socket = new LoopbackQrSocket(base, opened.session, line.channelId);
    // The session attaches its handlers as soon as this resolves: the events come after.
    setTimeout(() => {
      socket.emit('connection.update', { connection: 'connecting' });
      if (!linked) {
        auth.state.creds.me = { ...opened.me };
        socket.emit('creds.update', { me: auth.state.creds.me });
      }
      socket.emit('connection.update', { connection: 'open' });
      for (const e of opened.events) {
        const arg = { ...e.arg, messages: e.arg.messages.map((m) => waProto.WebMessageInfo.fromObject(m)) } as unknown as BaileysEventMap['messages.upsert'];
        socket.emit(e.event, arg);
      }
    }, 50);
    return { socket, fetchMedia: async () => ({ tooLarge: true as const }) };
  };
}
