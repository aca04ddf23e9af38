import pg from 'pg';
import type { Knex } from 'knex';
import { createKnex } from '../../api/db/knex';
import { testServerAdminUrl } from '../helpers/db';

export interface ScratchDatabase {
  url: string;
  knex: Knex;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await testServerAdminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the run's PostgreSQL server (test/helpers/db.ts) (`<prefix>_<pid>`), so a test may roll every migration
 * back without touching the run's shared test database.
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}`;
  await admin(async (c) => {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.query(`create database "${name}"`);
  });
  const url = (await testServerAdminUrl()).replace(/\/[^/]*$/, `/${name}`);
  const knex = createKnex(url, { pool: { max: 10 } });
  return {
    url,
    knex,
    async drop() {
      await knex.destroy();
      await admin((c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
