import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startCluster, type Cluster } from '../../../scripts/lib/cluster';
import { freePort } from '../../../scripts/lib/processes';
import { testDatabase } from '../../helpers/db';
import { testTemporalAddress } from '../../helpers/temporal';
import { TEST_REDIS_URL } from '../../helpers/redis';
import { JWT_SECRET } from '../../reliability/support/childApi';
import { TelegramFake } from '../../fakes/telegram';

/** Telegram's Bot API for the cluster's workers (a channel whose sends run as workflows). */
export const telegram = new TelegramFake();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ApiCall {
  status: number;
  body: any;
}

/** A JSON call to the load balancer or to one api node (`base`), with a client address of our choosing. */
export async function call(base: string, method: string, p: string, options: { token?: string; body?: unknown; ip?: string } = {}): Promise<ApiCall> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const res = await fetch(`${base}${p}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

let shared: Promise<Cluster> | undefined;

/**
 * The run's cluster: 2 api nodes, 2 workers, a RabbitMQ node and haproxy over the run's database,
 * Temporal and Redis, started once for every file of test/cluster/ and stopped by `stopTestCluster`.
 */
export function testCluster(): Promise<Cluster> {
  shared ??= (async () => {
    const { url } = await testDatabase();
    const temporalAddress = await testTemporalAddress();
    await telegram.start();
    const ports = {
      lb: await freePort(),
      apis: [await freePort(), await freePort()],
      smtp: [0, 0],
      rabbit: { amqp: await freePort(), mqtt: await freePort(), ws: await freePort(), management: await freePort(), dist: await freePort() },
    };
    return startCluster({
      root,
      dir: mkdtempSync(path.join(os.tmpdir(), 'balcao-cluster-')),
      databaseUrl: url,
      temporalAddress,
      redisUrl: TEST_REDIS_URL,
      workers: 2,
      ports,
      rabbitNode: `balcao-test-${process.pid}@localhost`,
      quiet: !process.env.CLUSTER_TEST_LOGS,
      env: {
        JWT_SECRET,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        TEMPORAL_TASK_QUEUE: `cluster-${process.pid}`,
        PRESENCE_GRACE_MS: '0',
        TELEGRAM_API_URL: telegram.url,
        // Telegram takes webhooks on HTTPS addresses only; nothing here follows this one.
        PUBLIC_URL: 'https://balcao.example',
      },
    });
  })();
  return shared;
}

export async function stopTestCluster(): Promise<void> {
  if (!shared) return;
  const cluster = await shared.catch(() => undefined);
  shared = undefined;
  await cluster?.stop();
  await telegram.stop();
}
