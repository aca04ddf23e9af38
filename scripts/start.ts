/**
 * `npm start`: the whole stack on one machine. Starts the embedded default of every dependency that is
 * not configured by environment variable (a real PostgreSQL server from npm, `temporal server start-dev`,
 * the aedes broker inside the api), migrates, seeds a demo workspace on first start, starts the api and
 * then the worker (which publishes through the api's broker), and prints the URLs. Ctrl-C stops
 * everything it started, the database last.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../api/config';
import { createKnex } from '../api/db/knex';
import { migrateLatest } from '../api/db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../api/db/embeddedPostgres';
import { ensureTemporalTools } from './lib/tools';
import { ensureUiBuilt } from './lib/uiBuild';
import { portAnswers, startProcess, stopAll, waitFor, type Managed } from './lib/processes';
import { seedDemo, DEMO_LOGIN } from './lib/seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children: Managed[] = [];
let embeddedPg: EmbeddedPostgres | undefined;
let stopping = false;

function appendTo(file: string): (line: string) => void {
  return (line) => appendFileSync(file, `${line}\n`, { mode: 0o600 });
}

/**
 * The dev server runs in its own process group (see startProcess), so an npm start killed with -9 leaves
 * it running on its port: the next start stops it when the pid it wrote still names a temporal process.
 */
async function stopLeftoverTemporal(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (!cmdline.includes('temporal') || !cmdline.includes('start-dev')) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(pid, 'SIGKILL');
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
    const temporal = startProcess('temporal', temporalCli, [
      'server', 'start-dev',
      '--ip', '127.0.0.1',
      '--port', String(port),
      // The Web UI has no login and shows workflow payloads (tenant data): loopback only (docs/deployment.md).
      '--ui-ip', '127.0.0.1',
      '--ui-port', String(uiPort),
      '--db-filename', path.join(config.dataDir, 'temporal.db'),
      '--log-level', 'error',
    ], { detached: true });
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
  watch(startProcess('worker', node, [...tsx, 'api/worker.ts'], { env, detached: true }));

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
