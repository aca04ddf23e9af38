/**
 * `npm start`: the whole stack on one machine. Starts the embedded default of every dependency that is
 * not configured by environment variable (a real PostgreSQL server from npm, `temporal server start-dev`,
 * the aedes broker inside the api), migrates, seeds a demo workspace on first start, starts the api and
 * then the worker (which publishes through the api's broker), and prints the URLs once /api/health answers
 * ok for every part, the worker polling its task queue included. Ctrl-C stops everything it started, the
 * database last.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../api/config';
import { createKnex } from '../api/db/knex';
import { migrateLatest } from '../api/db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../api/db/embeddedPostgres';
import { ensureTemporalTools } from './lib/tools';
import { ensureUiBuilt } from './lib/uiBuild';
import { portAnswers, startProcess, stopAll, waitFor, type Managed } from './lib/processes';
import { seedDemo, DEMO_LOGIN } from './lib/seed';
import { devServerArgs, stopLeftoverTemporal } from './lib/temporalDevServer';
import { waitForHealth } from './lib/readiness';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: Managed[] = [];
let embeddedPg: EmbeddedPostgres | undefined;
let stopping = false;

function appendTo(file: string): (line: string) => void {
  return (line) => appendFileSync(file, `${line}\n`, { mode: 0o600 });
}

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.log('\n• Encerrando…');
    await stopAll([...children].reverse());
    await embeddedPg?.stop().catch(() => undefined);
  }
  process.exit(code);
}

async function main(): Promise<void> {
  process.chdir(root);
  const config = loadConfig();
  mkdirSync(config.dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: config.dataDir, JWT_SECRET: config.jwtSecret, MQTT_INTERNAL_PASSWORD: config.mqttInternalPassword };

  // The api's ports must be free before anything starts: another server there (an earlier Balcão still
  // running) would answer the readiness check below in the api's place while the api died on EADDRINUSE.
  for (const [name, port] of [['PORT', config.port], ['SMTP_PORT', config.smtpPort]] as const) {
    if (port > 0 && (await portAnswers(port))) throw new Error(`a porta ${port} (${name}) já está em uso: outro Balcão ainda está rodando? Encerre-o ou defina ${name} com outra porta.`);
  }

  ensureUiBuilt(root);

  if (!process.env.DATABASE_URL) {
    const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
    const dataDir = path.join(config.dataDir, 'pg');
    const logFile = path.join(config.dataDir, 'postgres.log');
    console.log(`• PostgreSQL embutido em 127.0.0.1:${port}, dados em ${dataDir} (log em ${logFile})`);
    embeddedPg = await startEmbeddedPostgres({ dataDir, passwordFile: path.join(config.dataDir, 'pg.password'), port, onLog: appendTo(logFile) });
    env.DATABASE_URL = embeddedPg.url;
  }
  const databaseUrl = env.DATABASE_URL as string;

  let temporalUi = process.env.TEMPORAL_UI_URL ?? '';
  if (!process.env.TEMPORAL_ADDRESS) {
    const port = Number(process.env.TEMPORAL_PORT ?? 7233);
    const uiPort = Number(process.env.TEMPORAL_UI_PORT ?? 8233);
    const { temporalCli } = await ensureTemporalTools();
    console.log(`• Temporal dev server em 127.0.0.1:${port} (Web UI ${uiPort}), dados em ${path.join(config.dataDir, 'temporal.db')}`);
    const pidFile = path.join(config.dataDir, 'temporal.pid');
    await stopLeftoverTemporal(pidFile);
    if (await portAnswers(port)) throw new Error(`A porta ${port} do Temporal já está em uso. Defina TEMPORAL_ADDRESS para usar esse servidor.`);
    const temporal = startProcess('temporal', temporalCli, devServerArgs({ port, uiPort, dbFile: path.join(config.dataDir, 'temporal.db') }), { detached: true });
    if (temporal.child.pid) writeFileSync(pidFile, String(temporal.child.pid), { mode: 0o600 });
    children.push(temporal);
    env.TEMPORAL_ADDRESS = `127.0.0.1:${port}`;
    temporalUi = `http://localhost:${uiPort}`;
    await waitFor('Temporal', () => portAnswers(port), 60_000, () => temporal.child.exitCode !== null);
  }

  const knex = createKnex(databaseUrl, { pool: { max: 2 } });
  try {
    const applied = await migrateLatest(knex);
    if (applied.length) console.log(`• Migrações aplicadas: ${applied.length}`);
    const seeded = await seedDemo(knex, { trialDays: config.trialDays, publicUrl: config.publicUrl });
    if (seeded) console.log('• Workspace de demonstração criado');
  } finally {
    await knex.destroy();
  }

  const node = process.execPath;
  const tsx = ['--import', 'tsx'];
  // Readable one-line logs in the terminal npm start owns (requests only at LOG_LEVEL=debug); JSON elsewhere.
  env.LOG_FORMAT ??= 'pretty';
  const watch = (c: Managed) => {
    children.push(c);
    void c.exited.then((code) => {
      if (!stopping) {
        console.error(`• O processo ${c.name} terminou (código ${code}); encerrando tudo.`);
        void shutdown(1);
      }
    });
  };
  env.BALCAO_PARENT_PID = String(process.pid);
  const api = startProcess('api', node, [...tsx, 'api/main.ts'], { env: { ...env, MIGRATE_ON_START: '0' }, detached: true });
  watch(api);
  await waitFor('api', () => portAnswers(config.port), 60_000, () => api.child.exitCode !== null);
  // The worker publishes realtime through the api's embedded broker: started once the api answers.
  const worker = startProcess('worker', node, [...tsx, 'activities/worker.ts'], { env, detached: true });
  watch(worker);
  // Up means a bot reply runs at once: /api/health answers ok for every part, the worker polling its queue included.
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  await waitForHealth(`http://${host}:${config.port}`, { timeoutMs: 120_000, failed: () => api.child.exitCode !== null || worker.child.exitCode !== null });

  const lines = [
    '',
    '  Balcão está no ar',
    `  App:             ${config.publicUrl}`,
    temporalUi ? `  Temporal Web UI: ${temporalUi}` : '  Temporal Web UI: (servidor externo; veja TEMPORAL_UI_URL)',
    `  Login demo:      ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
    '  Ctrl-C encerra tudo.',
    '',
  ];
  console.log(lines.join('\n'));
}

process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));
main().catch(async (err: unknown) => {
  console.error(`• Falha ao iniciar: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
