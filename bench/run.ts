/**
 * `npm run bench [scenario]`: runs each scenario on loopback against its baseline measured in the same
 * run, prints a table and writes JSON to bench/results/. Targets are reported, never asserted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { createKnex } from '../api/db/knex';
import { migrateLatest } from '../api/db/migrate';
import { coreLayout } from './lib/pin';
import { httpFloor } from './httpFloor';

const SERVER = process.env.BENCH_PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scenarios = { 'http-floor': httpFloor } as const;

async function main(): Promise<void> {
  const only = process.argv[2];
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query('drop database if exists balcao_bench with (force)');
  await admin.query('create database balcao_bench');
  await admin.end();
  const databaseUrl = SERVER.replace(/\/[^/]*$/, '/balcao_bench');
  const knex = createKnex(databaseUrl, { pool: { max: 4 } });
  await migrateLatest(knex);
  const { serverCore } = coreLayout();
  mkdirSync('bench/results', { recursive: true });
  try {
    for (const [name, run] of Object.entries(scenarios)) {
      if (only && only !== name) continue;
      console.log(`\n== ${name} ==`);
      const result = await run({ knex, databaseUrl, serverCore, seconds });
      console.log(`target: ${result.target} → ${(result.ratio * 100).toFixed(0)}% (${result.met ? 'met' : 'missed'})`);
      writeFileSync(`bench/results/${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(result, null, 2));
    }
  } finally {
    await knex.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
