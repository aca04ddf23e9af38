import pg from 'pg';
import type { Knex } from 'knex';
import { createKnex, bindModels } from '../../api/db/knex';
import { migrateLatest } from '../../api/db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../api/db/embeddedPostgres';

const SERVER_URL = process.env.TEST_PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface TestDatabaseState {
  shared?: Promise<{ url: string; knex: Knex }>;
  embedded?: EmbeddedPostgres;
  dbName?: string;
}

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * One database per test run: the machine's PostgreSQL when it answers (database created fresh, named
 * for this process, stale ones of dead runs dropped), else embedded PGlite in memory.
 */
async function prepare(): Promise<{ url: string; knex: Knex }> {
  let url: string;
  if (await serverAnswers(SERVER_URL)) {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'balcao_test_%'");
      for (const { datname } of rows) {
        const pid = Number(datname.slice('balcao_test_'.length));
        if (!alive(pid)) await admin.query(`drop database if exists "${datname}" with (force)`);
      }
      const dbName = `balcao_test_${process.pid}`;
      state.dbName = dbName;
      await admin.query(`drop database if exists "${dbName}" with (force)`);
      await admin.query(`create database "${dbName}"`);
    } finally {
      await admin.end();
    }
    url = SERVER_URL.replace(/\/[^/]*$/, `/${state.dbName}`);
  } else {
    state.embedded = await startEmbeddedPostgres({ port: 0 });
    url = state.embedded.url;
  }
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
  const { embedded, dbName } = state;
  state.embedded = undefined;
  state.dbName = undefined;
  if (embedded) await embedded.stop();
  if (dbName) {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${dbName}" with (force)`).catch(() => undefined);
    await admin.end();
  }
}
