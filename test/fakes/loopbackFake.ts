import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the provider fakes (Telegram Bot API, Meta Graph API) share: a server on a free loopback port,
 * each request's whole body read before `handle` sees it, and a stop that drops kept-alive connections.
 */
export abstract class LoopbackFake {
  private server?: http.Server;
  url = '';

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void>;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private async receive(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    await this.handle(req, res, Buffer.concat(chunks));
  }
}
