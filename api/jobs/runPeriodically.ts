import type { Logger } from '../logger';
import { everyTick, type JobGate } from './leases';

export interface PeriodicJob {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

let gate: JobGate = everyTick;

/**
 * Makes every periodic job of this process ask `next` before each tick: `pgJobLeases` in a cluster
 * (CLUSTER_JOBS), so each sweep runs once per interval across all processes. Called once at start-up by
 * main.ts and the worker; the default runs every tick.
 */
export function useJobGate(next: JobGate): void {
  gate = next;
}

/**
 * Runs `task` every `intervalMs` (the first run one interval after the start), never two runs at once,
 * until stopped. A run that throws (database away, Temporal away) is logged under `name` and the next
 * tick tries again. The timer does not keep the process alive. `signal` is aborted by `stop()`: a task
 * that loops (a sweep draining a backlog batch by batch) ends early instead of holding the shutdown.
 */
export function runPeriodically(logger: Logger, name: string, intervalMs: number, task: (signal: AbortSignal) => Promise<unknown>): PeriodicJob {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const abort = new AbortController();
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    running = gate
      .claim(name, intervalMs)
      .then((mine) => (mine ? task(abort.signal) : undefined))
      .catch((err: unknown) => logger.error({ err }, `${name} failed`))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}
