/**
 * `npm start` runs the api and the worker in process groups of their own, so a Ctrl-C reaches only
 * scripts/start.ts, which stops them in order (worker, api, Temporal, database). If start.ts itself dies
 * (kill -9), nothing would stop them: a process started with BALCAO_PARENT_PID ends itself, through its
 * own signal handler, once that parent is gone.
 */
export function exitWithParent(env: NodeJS.ProcessEnv = process.env, intervalMs = 1000): void {
  const parent = Number(env.BALCAO_PARENT_PID);
  if (!Number.isInteger(parent) || parent <= 1) return;
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      clearInterval(timer);
      process.kill(process.pid, 'SIGTERM');
    }
  }, intervalMs);
  timer.unref();
}
