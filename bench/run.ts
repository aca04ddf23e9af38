/**
 * `npm run bench [scenario]`: runs each scenario BENCH_RUNS times (default 3) on loopback, each run against
 * its baseline measured in the same run, prints each run's table, then the median and spread (min–max)
 * over the runs, and writes JSON to bench/results/. Targets are reported, never asserted. Before each run
 * it waits (bounded) for the machine's load to settle and prints the load average before and after, and
 * the summary flags runs on a busy machine (bench/lib/runs.ts). BENCH_SECONDS (default 10) is the measured
 * time per server; BENCH_SCALE (default 1) scales the seeded data (0.01 for a quick run); BENCH_DB names
 * the database (default balcao_bench; a run drops it first), BENCH_KEEP_DB=1 keeps it, and its seeded
 * inbox, from the last run. bench/README.md lists every variable.
 */
import os from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { createKnex } from '../api/db/knex';
import { migrateLatest } from '../api/db/migrate';
import { coreLayout } from './lib/pin';
import type { Scenario, ScenarioResult } from './lib/scenario';
import { BENCH_DIR } from './lib/server';
import { aggregateChecks, aggregateRows, before, checkLine, checksOf, describeMachine, spreadTable, type MachineState } from './lib/runs';

const SERVER = process.env.BENCH_PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_DB ?? 'balcao_bench';
// Each scenario's module is loaded only when it runs: one scenario's imports (bot-turn: the Temporal worker
// and every activity; ui-weight: vite) never stand in the way of another.
const scenarios: Record<string, () => Promise<Scenario>> = {
  'http-floor': async () => (await import('./httpFloor')).httpFloor,
  'inbox-list': async () => (await import('./inboxList')).inboxList,
  counters: async () => (await import('./counters')).counters,
  ingest: async () => (await import('./ingest')).ingest,
  broker: async () => (await import('./broker')).broker,
  'ui-weight': async () => (await import('./uiWeight')).uiWeight,
  'bot-turn': async () => (await import('./botTurn')).botTurn,
  campaign: async () => (await import('./campaign')).campaign,
  reports: async () => (await import('./reports')).reports,
  search: async () => (await import('./search')).search,
  'public-site': async () => (await import('./publicSite')).publicSite,
  cluster: async () => (await import('./cluster')).cluster,
};

/** Scenarios whose figures do not vary from run to run (the size of a build): measured once. */
const SINGLE_RUN = new Set(['ui-weight']);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

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
    for (const [name, load] of Object.entries(scenarios)) {
      if (only.length && !only.includes(name)) continue;
      const runs = SINGLE_RUN.has(name) ? 1 : RUNS;
      console.log(`\n== ${name} ==`);
      const results: ScenarioResult[] = [];
      const machine: MachineState[] = [];
      for (let i = 1; i <= runs; i++) {
        const state = await before(!SINGLE_RUN.has(name));
        console.log(`-- ${name} run ${i}/${runs}: ${describeMachine(state)}`);
        let result: ScenarioResult;
        try {
          result = await (await load())({ knex, databaseUrl, serverCore, seconds, scale });
        } catch (err) {
          // One broken scenario must not hide the others' figures: it is reported and the run goes on.
          console.error(err);
          summary.push(`${name}: failed in run ${i} (${(err as Error).message})`);
          failed = true;
          break;
        }
        state.loadAfter = os.loadavg();
        if (result.busy) {
          state.noisy = true;
          state.reason = [state.reason, result.busy].filter(Boolean).join('; ');
        }
        console.log(`  load average after: ${state.loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
        for (const c of checksOf(result)) console.log(`  ${c.target} → ${Number.isFinite(c.value) ? c.value.toFixed(c.unit === '%' ? 0 : 2) : '-'} ${c.unit} (${c.informative ? 'informative' : c.met ? 'met' : 'missed'})`);
        for (const note of result.notes ?? []) console.log(`  ${note}`);
        results.push(result);
        machine.push(state);
      }
      if (!results.length) continue;
      const rows = aggregateRows(results);
      const checks = aggregateChecks(results);
      if (results.length > 1) {
        console.log(`\n${name}: median (min–max) of ${results.length} runs; each ratio against the baseline of its own run`);
        console.log(spreadTable(rows));
      }
      for (const c of checks) {
        const line = checkLine(name, c);
        console.log(line);
        summary.push(line);
      }
      machine.forEach((m, i) => {
        if (m.noisy) summary.push(`${name}: run ${i + 1}/${results.length} on a busy machine (${m.reason}): its figures are not comparable`);
      });
      writeFileSync(
        `bench/results/${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
        JSON.stringify({ seconds, scale, runs: results.map((result, i) => ({ machine: machine[i], ...result })), rows, checks }, null, 2),
      );
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
