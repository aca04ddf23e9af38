import type { Logger } from '../logger';

export interface PeriodicJob {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs` (the first run one interval after the start), never two runs at once,
 * until stopped. A run that throws (database away, Temporal away) is logged under `name` and the next
 * tick tries again. The timer does not keep the process alive.
 */
export function runPeriodically(logger: Logger, name: string, intervalMs: number, task: () => Promise<unknown>): PeriodicJob {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    running = task()
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
      await running;
    },
  };
}
