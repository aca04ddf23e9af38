import type http from 'node:http';
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
import { WhatsappWebFake } from '../../fakes/whatsappWeb';

/**
 * Telegram's Bot API whose sendMessage answers can be held: a request that arrives while held waits, and
 * one whose client is gone when it is let go (its worker was killed) is dropped unprocessed — the send
 * never reached Telegram — so a later attempt of the same message is its only delivery.
 */
export class GatedTelegram extends TelegramFake {
  private gate: Promise<void> | null = null;
  private open = () => {};
  /** Texts of the sendMessage requests waiting at the gate now. */
  readonly waiting = new Set<string>();
  /** Requests whose client went away while they waited (noted when it went): never processed. */
  readonly dropped: { text: string; at: number }[] = [];

  hold(): void {
    this.gate ??= new Promise((r) => (this.open = r));
  }

  letGo(): void {
    this.open();
    this.gate = null;
  }

  protected override async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    if (this.gate && req.url?.endsWith('/sendMessage')) {
      const text = textOf(raw);
      let gone = false;
      const close = () => {
        gone = true;
        this.waiting.delete(text);
        this.dropped.push({ text, at: Date.now() });
      };
      req.socket.once('close', close);
      this.waiting.add(text);
      await this.gate;
      this.waiting.delete(text);
      req.socket.off('close', close);
      if (gone) return;
    }
    return super.handle(req, res, raw);
  }
}

function textOf(raw: Buffer): string {
  try {
    return String((JSON.parse(raw.toString('utf8')) as { text?: unknown }).text);
  } catch {
    return raw.toString('utf8');
  }
}

/** Telegram's Bot API for the cluster's workers (a channel whose sends run as workflows). */
export const telegram = new GatedTelegram();
/** WhatsApp's side of the QR sockets the cluster's workers open (test/cluster/support/qrWorker.ts). */
export const whatsappWeb = new WhatsappWebFake();

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
    await whatsappWeb.start();
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
      // The worker with WhatsApp's QR sockets on loopback (nothing else differs from activities/worker.ts).
      workerScript: 'test/cluster/support/qrWorker.ts',
      env: {
        JWT_SECRET,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        TEMPORAL_TASK_QUEUE: `cluster-${process.pid}`,
        PRESENCE_GRACE_MS: '0',
        TELEGRAM_API_URL: telegram.url,
        WHATSAPP_WEB_FAKE_URL: whatsappWeb.url,
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
  await whatsappWeb.stop();
}

/** Terminates a workflow of the cluster's Temporal (a QR line's connection a test is done with). */
export async function stopWorkflow(workflowId: string): Promise<void> {
  const { Client, Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address: await testTemporalAddress() });
  try {
    await new Client({ connection }).workflow
      .getHandle(workflowId)
      .terminate('test done')
      .catch(() => undefined);
  } finally {
    await connection.close();
  }
}
