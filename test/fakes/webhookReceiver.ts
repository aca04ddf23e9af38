import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
  /** Whether the signature matched the secret the receiver was given. */
  signatureValid: boolean;
}

/** Standard Webhooks: base64 HMAC-SHA256 of "id.timestamp.body" keyed with the secret's decoded bytes. */
export function verifySignature(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return header.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    return version === 'v1' && sig !== undefined && sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  });
}

/**
 * A real HTTP receiver on loopback for webhook tests. `respond` decides the status per request (default
 * 204); `accepted` keeps the requests answered with 2xx, `all` every request that arrived.
 */
export class WebhookReceiver {
  readonly all: ReceivedWebhook[] = [];
  readonly accepted: ReceivedWebhook[] = [];
  secret = '';
  respond: (hook: ReceivedWebhook) => number | { status: number; headers?: Record<string, string> } = () => 204;
  private server?: http.Server;
  private port = 0;
  private waiters: (() => void)[] = [];

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Listens (again, on the same port after stop()). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const id = String(req.headers['webhook-id'] ?? '');
        const timestamp = String(req.headers['webhook-timestamp'] ?? '');
        const signature = String(req.headers['webhook-signature'] ?? '');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const hook = { id, timestamp, signature, body, json, signatureValid: !!this.secret && verifySignature(this.secret, id, timestamp, body, signature) };
        this.all.push(hook);
        const answer = this.respond(hook);
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        if (status >= 200 && status < 300) this.accepted.push(hook);
        res.writeHead(status, headers).end();
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves when `test()` holds after some request, or rejects after `ms`. */
  async waitFor(test: () => boolean, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met within ${ms} ms (${this.all.length} requests)`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}
