/**
 * The scale-out topology (scripts/lib/cluster.ts: RabbitMQ, haproxy, api nodes, workers) as the bench
 * starts it, on free ports over the bench database, for the cluster scenario and the broker scenario's
 * RabbitMQ rows. BENCH_REDIS_URL, BENCH_LOG_LEVEL (default warn) and BENCH_CLUSTER_LOGS apply.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster, type Cluster, type ClusterPorts } from '../../scripts/lib/cluster';
import { freePort } from '../../scripts/lib/processes';
import type { ScenarioContext } from './scenario';
import { BENCH_DIR, JWT_SECRET } from './server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function benchTopologyPorts(apiNodes: number): Promise<ClusterPorts> {
  const apis: number[] = [];
  for (let i = 0; i < apiNodes; i++) apis.push(await freePort());
  return {
    lb: await freePort(),
    apis,
    smtp: apis.map(() => 0),
    rabbit: { amqp: await freePort(), mqtt: await freePort(), ws: await freePort(), management: await freePort(), dist: await freePort() },
  };
}

/** `name` tells this run's files, RabbitMQ node and Temporal task queue from another's. */
export function startBenchTopology(ctx: ScenarioContext, options: { name: string; ports: ClusterPorts; workers: number; temporalAddress: string }): Promise<Cluster> {
  const { name, ports, workers, temporalAddress } = options;
  return startCluster({
    root,
    dir: mkdtempSync(path.join(BENCH_DIR, `${name}-`)),
    databaseUrl: ctx.databaseUrl,
    temporalAddress,
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    workers,
    ports,
    rabbitNode: `balcao-${name}-${process.pid}@localhost`,
    quiet: !process.env.BENCH_CLUSTER_LOGS,
    env: {
      JWT_SECRET,
      NODE_ENV: 'production',
      // What production writes (warnings and errors); the request log at info would be a line per message.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      TEMPORAL_TASK_QUEUE: `bench-${name}-${process.pid}`,
      BALCAO_PARENT_PID: String(process.pid),
    },
  });
}
