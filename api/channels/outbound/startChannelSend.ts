import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { AppDeps } from '../../deps';
import { workflowIds } from '../../../workflows/ids';
import { runPeriodically, type PeriodicJob } from '../../jobs/runPeriodically';
import type { channelSend } from '../../../workflows/channels/channelSend';

export type StartSendDeps = Pick<AppDeps, 'knex' | 'logger'> & Partial<Pick<AppDeps, 'temporal'>>;

/**
 * Starts `channel-send:{messageId}` for a committed `pending` message and notes delivery_started_at. A second
 * start of a running delivery keeps it (USE_EXISTING); `replace` (the agent's retry of a failed message)
 * replaces a finished or running run, and the activity's row lock keeps the two from sending side by side.
 * A start that fails leaves the row pending and unstarted for the sweep. Never throws.
 */
export async function startChannelSend(deps: StartSendDeps, messageId: number, options: { replace?: boolean } = {}): Promise<boolean> {
  try {
    if (!deps.temporal) throw new Error('no Temporal gateway');
    const client = await deps.temporal.client();
    await client.workflow.start<typeof channelSend>('channelSend', {
      taskQueue: deps.temporal.taskQueue,
      workflowId: workflowIds.channelSend(messageId),
      workflowIdConflictPolicy: options.replace ? WorkflowIdConflictPolicy.TERMINATE_EXISTING : WorkflowIdConflictPolicy.USE_EXISTING,
      args: [{ messageId }],
    });
    await deps.knex('messages').where({ id: messageId }).update({ deliveryStartedAt: deps.knex.fn.now() });
    return true;
  } catch (err) {
    deps.logger.warn({ err, messageId }, 'channel send workflow not started; the sweep will retry');
    return false;
  }
}

/**
 * Starts the workflow of every pending message whose start never happened (the api died between commit
 * and start, or Temporal was away), oldest first; with `all`, every pending message (worker start:
 * a lost history starts again, running ones are kept). Returns how many were started.
 */
export async function startUnstartedSends(deps: StartSendDeps, options: { olderThanMs?: number; all?: boolean; batch?: number } = {}): Promise<number> {
  const { olderThanMs = 30_000, batch = 200 } = options;
  const cutoff = new Date(Date.now() - olderThanMs);
  let after = 0;
  let started = 0;
  for (;;) {
    let q = deps.knex('messages').where({ deliveryState: 'pending' }).where('id', '>', after);
    if (!options.all) q = q.whereNull('delivery_started_at').where('created_at', '<=', cutoff);
    const rows: { id: string | number }[] = await q.orderBy('id').limit(batch).select('id');
    for (const { id } of rows) {
      after = Number(id);
      if (!(await startChannelSend(deps, after))) return started;
      started++;
    }
    if (rows.length < batch) return started;
  }
}

/** Runs `startUnstartedSends` every `intervalMs` until stopped (the worker runs it). */
export function startSendSweeper(deps: StartSendDeps, options: { intervalMs?: number; olderThanMs?: number } = {}): PeriodicJob {
  const { intervalMs = 60_000, olderThanMs } = options;
  return runPeriodically(deps.logger, 'channel send sweep', intervalMs, async () => {
    const n = await startUnstartedSends(deps, { olderThanMs });
    if (n) deps.logger.info({ started: n }, 'unstarted channel sends started');
  });
}
