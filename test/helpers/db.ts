import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { processAlive } from '../../api/system/processes';
import type { Knex } from 'knex';
import { createKnex, bindModels } from '../../api/db/knex';
import { migrateLatest } from '../../api/db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../api/db/embeddedPostgres';

const SERVER_URL = process.env.TEST_PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface TestDatabaseState {
  shared?: Promise<{ url: string; knex: Knex }>;
  embedded?: EmbeddedPostgres;
  embeddedDir?: string;
  dbName?: string;
}

/**
 * Which engine a run uses: `TEST_DATABASE=embedded` forces the embedded server `npm start` runs (npm test
 * runs the auth suites a second time that way), `machine` requires the machine's PostgreSQL, and unset
 * takes the machine's when it answers, else the embedded one.
 */
export type TestEngine = 'machine' | 'embedded';
const requested = process.env.TEST_DATABASE as TestEngine | undefined;
if (requested && requested !== 'machine' && requested !== 'embedded') throw new Error(`TEST_DATABASE must be machine or embedded, not ${requested}`);

/**
 * Kept on globalThis, not in module variables: tsx can load this file twice in one run (a dynamic
 * `import()` gets its own module instance), and a second instance must not create the run's database
 * again (a drop `with (force)` under the first one's feet).
 */
const state: TestDatabaseState = ((globalThis as Record<symbol, unknown>)[Symbol.for('balcao.testDatabase')] ??= {}) as TestDatabaseState;
/** Models are bound per module instance: a second instance has its own model classes. */
let boundKnex: Knex | undefined;

async function serverAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database for this run on the machine's server (stale ones of dead runs dropped). */
async function prepareOnMachine(): Promise<string> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'balcao_test_%'");
    for (const { datname } of rows) {
      const pid = Number(datname.slice('balcao_test_'.length));
      if (!processAlive(pid)) await admin.query(`drop database if exists "${datname}" with (force)`);
    }
    const dbName = `balcao_test_${process.pid}`;
    state.dbName = dbName;
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.query(`create database "${dbName}"`);
  } finally {
    await admin.end();
  }
  return SERVER_URL.replace(/\/[^/]*$/, `/${state.dbName}`);
}

/** The embedded server of `npm start` (api/db/embeddedPostgres.ts) on a throw-away cluster of this run. */
async function prepareEmbedded(): Promise<string> {
  state.embeddedDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-test-pg-'));
  // As root the server runs as an unprivileged user, who must reach the cluster directory.
  chmodSync(state.embeddedDir, 0o755);
  state.embedded = await startEmbeddedPostgres({ dataDir: path.join(state.embeddedDir, 'pg'), ephemeral: true, database: 'balcao_test' });
  return state.embedded.url;
}

/** The maintenance database of the server this run uses (to create and drop scratch databases). */
export async function testServerAdminUrl(): Promise<string> {
  await testDatabase();
  return state.embedded ? state.embedded.adminUrl : SERVER_URL;
}

async function prepare(): Promise<{ url: string; knex: Knex }> {
  const engine: TestEngine = requested ?? ((await serverAnswers(SERVER_URL)) ? 'machine' : 'embedded');
  const url = engine === 'machine' ? await prepareOnMachine() : await prepareEmbedded();
  const knex = createKnex(url, { pool: { max: 10 } });
  await migrateLatest(knex);
  return { url, knex };
}

export async function testDatabase(): Promise<{ url: string; knex: Knex }> {
  state.shared ??= prepare();
  const db = await state.shared;
  if (boundKnex !== db.knex) {
    bindModels(db.knex);
    boundKnex = db.knex;
  }
  return db;
}

export async function closeTestDatabase(): Promise<void> {
  if (!state.shared) return;
  const { knex } = await state.shared;
  state.shared = undefined;
  await knex.destroy();
  const { embedded, embeddedDir, dbName } = state;
  state.embedded = undefined;
  state.embeddedDir = undefined;
  state.dbName = undefined;
  if (embedded) await embedded.stop();
  if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  if (dbName) {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${dbName}" with (force)`).catch(() => undefined);
    await admin.end();
  }
}
