import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKnex } from '../../api/db/knex';
import { createApp } from '../../api/app';
import { attachBroker } from '../../api/realtime/broker';
import { setOperatorOnline } from '../../api/assignment/setOperatorOnline';
import { closeMembershipCache, membershipCacheFor, type MembershipCache } from '../../api/auth/membershipCache';
import type { ApiResponse, RequestOptions, TestApi } from '../helpers/api';
import { testDatabase } from '../helpers/db';
import { Clients } from '../realtime/mqttClients';

/**
 * A second api process over the test database: its own knex pool, membership cache, HTTP server and
 * embedded MQTT broker, sharing the rest (config, mailer, Temporal) with `a`. With `channel` set to one
 * nobody notifies, its cache LISTENs and hears nothing, like a process whose notifications are lost
 * (PGlite accepted LISTEN and never delivered across connections).
 */
export interface SecondProcess {
  url: string;
  knex: Knex;
  cache: MembershipCache;
  clients: Clients;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Status of an authenticated GET /api/label with this token. */
  status(token: string): Promise<number>;
  close(): Promise<void>;
}

export async function startSecondProcess(a: TestApi, options: { channel?: string } = {}): Promise<SecondProcess> {
  const { url: databaseUrl } = await testDatabase();
  const knex = createKnex(databaseUrl, { pool: { max: 4 } });
  const cache = membershipCacheFor(knex, { channel: options.channel });
  for (const deadline = Date.now() + 20_000; !cache.listening() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
  expect(cache.listening(), 'the second process listens').to.equal(true);

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const broker = attachBroker(server, { config: a.config, knex, logger: a.deps.logger, onPresence: setOperatorOnline });
  const handle = createApp({ ...a.deps, knex, publisher: broker.publisher, realtimeSessions: broker, health: { mqtt: () => broker.healthy() } }).callback();
  server.on('request', (req, res) => void handle(req, res));
  const clients = new Clients(url);

  async function request(method: string, p: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  return {
    url,
    knex,
    cache,
    clients,
    request,
    status: async (token) => (await request('GET', '/api/label', { token })).status,
    async close() {
      await clients.endAll();
      await broker.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeMembershipCache(knex);
      await knex.destroy();
    },
  };
}

/** Polls until `probe` answers true; resolves to the milliseconds it took, or fails after `withinMs`. */
export async function within(withinMs: number, probe: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`${what}: still not true after ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
