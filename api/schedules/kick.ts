import { workflowIds } from '../../workflows/ids';
import { scheduledMessageChangedSignal, type scheduledMessage, type ScheduledMessageInput } from '../../workflows/schedules/scheduledMessage';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';
import { sweepOutbox, type OutboxStartDeps } from '../temporal/outboxStarts';

export type KickDeps = OutboxStartDeps;

/**
 * Tells `scheduled-message:{id}` that its row changed, starting it when none runs (signal-with-start), then
 * notes which revision it was told about. A failure is logged, never thrown: the row stays "not told" and
 * the worker's sweep tells it again (docs/scheduled-messages.md "Never lost, never twice"). Resolves true
 * when told.
 */
export async function kickScheduledMessage(deps: KickDeps, row: { id: number; workspaceId: number; revision: number }): Promise<boolean> {
  try {
    if (!deps.temporal) throw new Error('no Temporal gateway');
    const client = await deps.temporal.client();
    const input: ScheduledMessageInput = { scheduledMessageId: row.id, workspaceId: row.workspaceId };
    await client.workflow.signalWithStart<typeof scheduledMessage, []>('scheduledMessage', {
      taskQueue: deps.temporal.taskQueue,
      workflowId: workflowIds.scheduledMessage(row.id),
      args: [input],
      signal: scheduledMessageChangedSignal,
      signalArgs: [],
    });
    await deps.knex('scheduled_messages').where({ id: row.id, revision: row.revision }).update({ kickedRevision: row.revision });
    return true;
  } catch (err) {
    deps.logger.warn({ err, scheduledMessageId: row.id }, 'scheduled message workflow not told; the sweep will retry');
    return false;
  }
}

/**
 * Tells the workflow of every pending schedule whose last change it has not heard of (the api died between
 * commit and signal, Temporal was away), oldest first; with `all`, every pending schedule (the worker's
 * start: a run lost with Temporal's store starts again, running ones only get a signal). Answers how many
 * were told.
 */
export async function kickUntoldSchedules(deps: KickDeps, options: { olderThanMs?: number; all?: boolean; batch?: number; workspaceIds?: number[] } = {}): Promise<number> {
  const { olderThanMs = 30_000, batch = 200 } = options;
  const cutoff = new Date(Date.now() - olderThanMs);
  const rowsAfter = (after: number, limit: number) => {
    let q = deps.knex('scheduled_messages').where({ state: 'scheduled' }).where('id', '>', after);
    if (!options.all) q = q.whereRaw('kicked_revision IS DISTINCT FROM revision').where('updated_at', '<=', cutoff);
    // A subset of workspaces (a test's own, in a database other tests share).
    if (options.workspaceIds) q = q.whereIn('workspace_id', options.workspaceIds);
    return q.orderBy('id').limit(limit).select('id', 'workspace_id', 'revision');
  };
  const rows = new Map<number, { id: number; workspaceId: number; revision: number }>();
  return sweepOutbox(
    async (after, limit) => {
      const page: { id: number; workspaceId: number; revision: number }[] = await rowsAfter(after, limit);
      for (const r of page) rows.set(Number(r.id), r);
      return page;
    },
    (id) => {
      const row = rows.get(id)!;
      rows.delete(id);
      return kickScheduledMessage(deps, row);
    },
    batch,
  );
}

/** Runs `kickUntoldSchedules` every `intervalMs` until stopped (the worker runs it). */
export function startScheduleSweeper(deps: KickDeps, options: { intervalMs?: number; olderThanMs?: number } = {}): PeriodicJob {
  const { intervalMs = 60_000, olderThanMs } = options;
  return runPeriodically(deps.logger, 'scheduled message sweep', intervalMs, async () => {
    const n = await kickUntoldSchedules(deps, { olderThanMs });
    if (n) deps.logger.info({ told: n }, 'scheduled message workflows told again');
  });
}
