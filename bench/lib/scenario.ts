import type { Knex } from 'knex';
import type { LoadResult } from './load';

/** What every scenario gets from bench/run.ts. */
export interface ScenarioContext {
  knex: Knex;
  databaseUrl: string;
  serverCore?: number;
  seconds: number;
  /** BENCH_SCALE: 1 = the data sizes; smaller for a quick run. */
  scale?: number;
}

/** One measured line of a scenario's table; `baseline` names the row its ratio is taken against. */
export type Row = { name: string; baseline?: string } & LoadResult;

/** One of the targets with the figure measured for it. */
export interface Check {
  target: string;
  value: number;
  unit: string;
  met: boolean;
  /** A figure reported next to the targets, with none of its own (never "missed"). */
  informative?: boolean;
}

export interface ScenarioResult {
  scenario: string;
  /** The headline target and its ratio (kept for the runner's summary line). */
  target: string;
  ratio: number;
  met: boolean;
  rows: Row[];
  checks?: Check[];
  notes?: string[];
  /** Scenario-specific figures kept in the JSON. */
  details?: unknown;
  /**
   * Set by a scenario that saw other work on the machine while it measured (the cluster scenario reads the
   * CPU of every process): run.ts flags the run as on a busy machine with this reason.
   */
  busy?: string;
}

export type Scenario = (ctx: ScenarioContext) => Promise<ScenarioResult>;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** LoadResult from raw latencies (ms) over a measured time. */
export function summarize(latencies: number[], seconds: number, errors = 0): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    errors,
    seconds,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

export function check(target: string, value: number, unit: string, met: boolean): Check {
  return { target, value, unit, met };
}

export function informative(what: string, value: number, unit: string): Check {
  return { target: what, value, unit, met: true, informative: true };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
