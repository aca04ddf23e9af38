import { hostname } from 'node:os';
import type { Knex } from 'knex';

/** Decides whether this process runs a periodic job's tick (runPeriodically.ts asks before each run). */
export interface JobGate {
  claim(name: string, intervalMs: number): Promise<boolean>;
}

/** One process alone (npm start): every tick runs. */
export const everyTick: JobGate = { claim: async () => true };

/**
 * Ticks never come closer together than this share of the interval across the cluster. Below 1 so a
 * process whose timer fires a little early still gets its own next tick; a node that died hands its jobs
 * over within two intervals.
 */
export const LEASE_SHARE = 0.9;

/** This process's name in periodic_job_runs.node: host and pid, for an operator reading the table. */
export function nodeName(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Once per interval across every process of a cluster (CLUSTER_JOBS, docs/scaling.md): a tick runs only
 * when it moves its job's `ran_at` forward, and the row lock that ON CONFLICT takes lets one process at a
 * time do so per interval. A row, not an advisory lock: nothing is held between ticks, so a process killed
 * mid-run leaves nothing behind, and `ran_at` shows when each job last ran.
 */
export function pgJobLeases(knex: Knex, node: string = nodeName()): JobGate {
  return {
    async claim(name, intervalMs) {
      const { rows } = await knex.raw<{ rows: unknown[] }>(
        `INSERT INTO periodic_job_runs (name, node, ran_at) VALUES (?, ?, now())
         ON CONFLICT (name) DO UPDATE SET node = excluded.node, ran_at = excluded.ran_at
         WHERE periodic_job_runs.ran_at <= now() - ? * interval '1 millisecond'
         RETURNING name`,
        [name, node, Math.floor(intervalMs * LEASE_SHARE)],
      );
      return rows.length > 0;
    },
  };
}
