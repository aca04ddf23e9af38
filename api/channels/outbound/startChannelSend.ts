import { workflowIds } from '../../../workflows/ids';
import { runPeriodically, type PeriodicJob } from '../../jobs/runPeriodically';
import { startOutboxWorkflow, sweepOutbox, type OutboxStartDeps } from '../../temporal/outboxStarts';
import type { ChannelSendInput } from '../../../workflows/channels/channelSend';

export type StartSendDeps = OutboxStartDeps;

/**
 * Starts `channel-send:{messageId}` for a committed `pending` message and notes delivery_started_at. A second
 * start of a running delivery keeps it (USE_EXISTING); `replace` (the agent's retry of a failed message)
 * replaces a finished or running run, and the activity's row lock keeps the two from sending side by side.
 * A start that fails leaves the row pending and unstarted for the sweep. Never throws.
 */
export function startChannelSend(deps: StartSendDeps, messageId: number, options: { replace?: boolean } = {}): Promise<boolean> {
  const input: ChannelSendInput = { messageId };
  return startOutboxWorkflow(deps, {
    workflowType: 'channelSend',
    workflowId: workflowIds.channelSend(messageId),
    args: [input],
    replace: options.replace,
    noteStarted: (knex) => knex('messages').where({ id: messageId }).update({ deliveryStartedAt: knex.fn.now() }),
    what: 'channel send',
    logFields: { messageId },
  });
}

/**
 * Starts the workflow of every pending message whose start never happened (the api died between commit
 * and start, or Temporal was away), oldest first; with `all`, every pending message (worker start:
 * a lost history starts again, running ones are kept). Returns how many were started.
 */
export async function startUnstartedSends(deps: StartSendDeps, options: { olderThanMs?: number; all?: boolean; batch?: number } = {}): Promise<number> {
  const { olderThanMs = 30_000, batch = 200 } = options;
  const cutoff = new Date(Date.now() - olderThanMs);
  const rowsAfter = (after: number, limit: number) => {
    let q = deps.knex('messages').where({ deliveryState: 'pending' }).where('id', '>', after);
    if (!options.all) q = q.whereNull('delivery_started_at').where('created_at', '<=', cutoff);
    return q.orderBy('id').limit(limit).select('id');
  };
  return sweepOutbox(rowsAfter, (id) => startChannelSend(deps, id), batch);
}

/** Runs `startUnstartedSends` every `intervalMs` until stopped (the worker runs it). */
export function startSendSweeper(deps: StartSendDeps, options: { intervalMs?: number; olderThanMs?: number } = {}): PeriodicJob {
  const { intervalMs = 60_000, olderThanMs } = options;
  return runPeriodically(deps.logger, 'channel send sweep', intervalMs, async () => {
    const n = await startUnstartedSends(deps, { olderThanMs });
    if (n) deps.logger.info({ started: n }, 'unstarted channel sends started');
  });
}
