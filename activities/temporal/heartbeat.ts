import { Context } from '@temporalio/activity';

/**
 * Runs `work` while telling Temporal every `everyMs` that this attempt is alive, so an attempt whose worker
 * died is noticed within the activity's heartbeat timeout and retried on another worker, instead of after
 * its start-to-close timeout. The SDK sends the first heartbeat at once and throttles the others to 0.8 ×
 * the heartbeat timeout. Outside an activity (a test or a bench calling the function directly) it only runs
 * `work`.
 */
export async function heartbeatWhile<T>(everyMs: number, work: () => Promise<T>): Promise<T> {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    // Called directly: no activity context.
  }
  if (!ctx) return work();
  const context = ctx;
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
