import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { errorMiddleware } from '../../api/http/errorMiddleware';
import { errors } from '../../api/http/errors';
import { serveUi } from '../../api/http/serveUi';

/** A response as it came over the wire. */
export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http, so the body arrives as sent (fetch would decode it and hide the encoding). */
export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body as text, brotli or gzip undone by its Content-Encoding. */
export const decodedBody = (res: Raw): string =>
  (res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body).toString();

export interface UiServer {
  url: string;
  close(): Promise<void>;
}

/**
 * serveUi over the built files in `root` as the api mounts it (the error middleware before it, a 404 after),
 * on a loopback port; `env` adds to the configuration (PUBLIC_URL, SUPPORT_PHONES…).
 */
export async function startUiServer(root: string, env: Record<string, string> = {}): Promise<UiServer> {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('silent')));
  app.use(serveUi(loadConfig({ DATA_DIR: root, JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', ...env }), root));
  app.use(() => {
    throw errors.notFound();
  });
  const handle = app.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
