import pg from 'pg';
import type { Knex } from 'knex';
import { createKnex, bindModels } from '../../api/db/knex';
import { migrateLatest } from '../../api/db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../api/db/embeddedPostgres';

const SERVER_URL = process.env.TEST_PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let shared: Promise<{ url: string; knex: Knex }> | undefined;
let embedded: EmbeddedPostgres | undefined;
let dbName: string | undefined;

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
      dbName = `balcao_test_${process.pid}`;
      await admin.query(`drop database if exists "${dbName}" with (force)`);
      await admin.query(`create database "${dbName}"`);
    } finally {
      await admin.end();
    }
    url = SERVER_URL.replace(/\/[^/]*$/, `/${dbName}`);
  } else {
    embedded = await startEmbeddedPostgres({ port: 0 });
    url = embedded.url;
  }
  const knex = createKnex(url, { pool: { max: 10 } });
  bindModels(knex);
  await migrateLatest(knex);
  return { url, knex };
}

export function testDatabase(): Promise<{ url: string; knex: Knex }> {
  shared ??= prepare();
  return shared;
}

export async function closeTestDatabase(): Promise<void> {
  if (!shared) return;
  const { knex } = await shared;
  shared = undefined;
  await knex.destroy();
  if (embedded) await embedded.stop();
  if (dbName) {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${dbName}" with (force)`).catch(() => undefined);
    await admin.end();
  }
}
