import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { createMailer } from '../../api/mail/mailer';
import { createTemporalGateway } from '../../api/temporal/client';
import { createMemoryRateLimiter } from '../../api/http/rateLimit';
import { createApp } from '../../api/app';
import { attachBroker, type EmbeddedBroker } from '../../api/realtime/broker';
import { setOperatorOnline } from '../../api/assignment/setOperatorOnline';
import type { AppDeps } from '../../api/deps';
import { testDatabase } from './db';
import { Mailbox } from '../fakes/smtp';
import { testTemporalAddress } from './temporal';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is (for malformed JSON tests). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApi {
  url: string;
  deps: AppDeps;
  config: Config;
  mailbox: Mailbox;
  broker: EmbeddedBroker;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * The real app on an ephemeral loopback port, over the run's test database, with real SMTP on loopback,
 * the embedded MQTT broker and the run's Temporal dev server.
 */
export async function startTestApi(configOverrides: Partial<Config> = {}): Promise<TestApi> {
  const { url: databaseUrl, knex } = await testDatabase();
  const mailbox = new Mailbox();
  const smtpUrl = await mailbox.start();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-test-'));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const temporalAddress = await testTemporalAddress();
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, PORT: String(port), JWT_SECRET: 'test-secret-'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'internal-test-secret', TELEGRAM_API_URL: 'http://127.0.0.1:9' }),
    databaseUrl,
    smtpUrl,
    temporalAddress,
    ...configOverrides,
  };
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const broker = attachBroker(server, { config, knex, logger, onPresence: setOperatorOnline });
  const deps: AppDeps = {
    config,
    knex,
    logger,
    mailer: createMailer(config, logger),
    publisher: broker.publisher,
    temporal: createTemporalGateway(config),
    rateLimiter: createMemoryRateLimiter(),
    health: { mqtt: () => broker.healthy() },
    realtimeSessions: broker,
  };
  const handle = createApp(deps).callback();
  server.on('request', (req, res) => void handle(req, res));
  const base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    deps,
    config,
    mailbox,
    broker,
    async request(method, p, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      let body: string | undefined;
      if (options.rawBody !== undefined) {
        body = options.rawBody;
        headers['Content-Type'] ??= 'application/json';
      } else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] = 'application/json';
      }
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      const res = await fetch(base + p, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed as never, headers: res.headers };
    },
    async close() {
      await broker.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.temporal.close();
      await mailbox.stop();
    },
  };
}
