/**
 * `npm run cluster`: the scale-out topology on one machine (docs/scaling.md) — 2 api nodes and 2 workers
 * behind haproxy, a RabbitMQ node with MQTT over WebSocket as the broker, over the machine's PostgreSQL
 * (DATABASE_URL), Redis (REDIS_URL) and Temporal (TEMPORAL_ADDRESS; unset: the dev server, as npm start).
 * API_NODES and WORKERS change the counts; PORT is the load balancer's. Ctrl-C stops everything.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../api/config';
import { createKnex } from '../api/db/knex';
import { migrateLatest } from '../api/db/migrate';
import { ensureTemporalTools } from './lib/tools';
import { ensureUiBuilt } from './lib/uiBuild';
import { portAnswers, startProcess, stopAll, waitFor, type Managed } from './lib/processes';
import { seedDemo, DEMO_LOGIN } from './lib/seed';
import { devServerArgs, stopLeftoverTemporal } from './lib/temporalDevServer';
import { waitForHealth } from './lib/readiness';
import { startCluster, type Cluster } from './lib/cluster';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let cluster: Cluster | undefined;
let temporal: Managed | undefined;
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.log('\n• Encerrando o cluster…');
    await cluster?.stop();
    if (temporal) await stopAll([temporal]);
  }
  process.exit(code);
}

const count = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new Error(`${name} deve ser um inteiro de 1 a 16`);
  return n;
};

async function main(): Promise<void> {
  process.chdir(root);
  const config = loadConfig();
  const dir = path.join(config.dataDir, 'cluster');
  mkdirSync(dir, { recursive: true });
  const apis = count('API_NODES', 2);
  const workers = count('WORKERS', 2);
  const lb = config.port;
  if (await portAnswers(lb)) throw new Error(`a porta ${lb} (PORT, o balanceador) já está em uso.`);
  ensureUiBuilt(root);

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const port = Number(process.env.TEMPORAL_PORT ?? 7233);
    const uiPort = Number(process.env.TEMPORAL_UI_PORT ?? 8233);
    const { temporalCli } = await ensureTemporalTools();
    const pidFile = path.join(dir, 'temporal.pid');
    await stopLeftoverTemporal(pidFile);
    if (await portAnswers(port)) throw new Error(`A porta ${port} do Temporal já está em uso. Defina TEMPORAL_ADDRESS para usar esse servidor.`);
    temporal = startProcess('temporal', temporalCli, devServerArgs({ port, uiPort, dbFile: path.join(dir, 'temporal.db') }), { detached: true });
    if (temporal.child.pid) writeFileSync(pidFile, String(temporal.child.pid), { mode: 0o600 });
    temporalAddress = `127.0.0.1:${port}`;
    await waitFor('Temporal', () => portAnswers(port), 60_000, () => temporal?.child.exitCode !== null);
  }

  const knex = createKnex(config.databaseUrl, { pool: { max: 2 } });
  try {
    const applied = await migrateLatest(knex);
    if (applied.length) console.log(`• Migrações aplicadas: ${applied.length}`);
    if (await seedDemo(knex, { trialDays: config.trialDays, publicUrl: `http://localhost:${lb}` })) console.log('• Workspace de demonstração criado');
  } finally {
    await knex.destroy();
  }

  const base = Number(process.env.CLUSTER_PORT_BASE ?? 3100);
  cluster = await startCluster({
    root,
    dir,
    databaseUrl: config.databaseUrl,
    temporalAddress,
    redisUrl: config.redisUrl ?? 'redis://127.0.0.1:6379',
    workers,
    ports: {
      lb,
      apis: Array.from({ length: apis }, (_, i) => base + 1 + i),
      smtp: Array.from({ length: apis }, (_, i) => (i === 0 ? config.smtpPort : 0)),
      rabbit: { amqp: 5673, mqtt: 1884, ws: 15676, management: 15673, dist: 25673 },
    },
    env: { JWT_SECRET: config.jwtSecret, LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty', BALCAO_PARENT_PID: String(process.pid) },
  });
  for (const [name, managed] of cluster.processes) {
    void managed.exited.then((code) => {
      if (!stopping) console.error(`• ${name} terminou (código ${code}); os outros seguem. Reinicie-o ou encerre com Ctrl-C.`);
    });
  }
  await waitForHealth(cluster.url, { timeoutMs: 180_000 });
  console.log(
    [
      '',
      `  Balcão em cluster: ${apis} nós da api, ${workers} workers, RabbitMQ, haproxy`,
      `  App (balanceador): http://localhost:${lb}`,
      `  Nós da api:        ${cluster.apiUrls.join(', ')}`,
      `  Broker:            ${cluster.mqttUrl} (navegadores: ${cluster.mqttWsUrl}); gestão em http://127.0.0.1:15673`,
      `  Login demo:        ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
      '  Ctrl-C encerra tudo.',
      '',
    ].join('\n'),
  );
}

process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));
main().catch(async (err: unknown) => {
  console.error(`• Falha ao iniciar o cluster: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
