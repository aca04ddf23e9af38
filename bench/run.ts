/**
 * `npm run bench [scenario]`: runs each scenario on loopback against its baseline measured in the same
 * run, prints a table and writes JSON to bench/results/. Targets are reported, never asserted.
 * BENCH_SECONDS (default 10) is the measured time per server; BENCH_SCALE (default 1) scales the seeded
 * data (0.01 for a quick run); BENCH_DB names the database (default balcao_bench; a run drops it first),
 * BENCH_KEEP_DB=1 keeps it, and its seeded inbox, from the last run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { createKnex } from '../api/db/knex';
import { migrateLatest } from '../api/db/migrate';
import { coreLayout } from './lib/pin';
import type { Scenario, ScenarioResult } from './lib/scenario';
import { BENCH_DIR } from './lib/server';
import { httpFloor } from './httpFloor';
import { inboxList } from './inboxList';
import { counters } from './counters';
import { ingest } from './ingest';
import { broker } from './broker';
import { uiWeight } from './uiWeight';
import { botTurn } from './botTurn';

const SERVER = process.env.BENCH_PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_DB ?? 'balcao_bench';
const scenarios: Record<string, Scenario> = {
  'http-floor': httpFloor,
  'inbox-list': inboxList,
  counters,
  ingest,
  broker,
  'ui-weight': uiWeight,
  'bot-turn': botTurn,
};

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const name of only) if (!(name in scenarios)) throw new Error(`unknown scenario ${name}; one of ${Object.keys(scenarios).join(', ')}`);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(DB)) throw new Error('BENCH_DB must be a plain lower-case database name');
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB])).rowCount;
  if (!exists || process.env.BENCH_KEEP_DB !== '1') {
    await admin.query(`drop database if exists ${DB} with (force)`);
    await admin.query(`create database ${DB}`);
  }
  await admin.end();
  const databaseUrl = SERVER.replace(/\/[^/]*$/, `/${DB}`);
  const knex = createKnex(databaseUrl, { pool: { max: 4 } });
  await migrateLatest(knex);
  const { serverCore } = coreLayout();
  mkdirSync('bench/results', { recursive: true });
  mkdirSync(BENCH_DIR, { recursive: true });
  const summary: string[] = [];
  let failed = false;
  try {
    for (const [name, run] of Object.entries(scenarios)) {
      if (only.length && !only.includes(name)) continue;
      console.log(`\n== ${name} ==`);
      let result: ScenarioResult;
      try {
        result = await run({ knex, databaseUrl, serverCore, seconds, scale });
      } catch (err) {
        // One broken scenario must not hide the others' figures: it is reported and the run goes on.
        console.error(err);
        summary.push(`${name}: failed (${(err as Error).message})`);
        failed = true;
        continue;
      }
      for (const c of result.checks ?? [{ target: result.target, value: result.ratio * 100, unit: '%', met: result.met }]) {
        const line = `${name}: ${c.target} → ${Number.isFinite(c.value) ? c.value.toFixed(c.unit === '%' ? 0 : 2) : '-'} ${c.unit} (${c.met ? 'met' : 'missed'})`;
        console.log(line);
        summary.push(line);
      }
      for (const note of result.notes ?? []) console.log(`  ${note}`);
      writeFileSync(`bench/results/${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify({ seconds, scale, ...result }, null, 2));
    }
  } finally {
    await knex.destroy();
  }
  console.log(`\n== summary ==\n${summary.join('\n')}`);
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
