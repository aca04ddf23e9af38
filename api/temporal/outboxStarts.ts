import { WorkflowIdConflictPolicy } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import type { TemporalGateway } from './client';

/** What starting an outbox row's workflow needs: the database, a logger and, when it is reachable, Temporal. */
export interface OutboxStartDeps {
  knex: Knex;
  logger: Logger;
  temporal?: TemporalGateway;
}

/**
 * Starts the workflow of a committed outbox row (a message to send, a webhook delivery) and then notes the
 * start on the row. A running workflow with the same id is kept (USE_EXISTING) unless `replace`, which
 * replaces a finished or running run. A start that fails leaves the row unstarted for the sweep and is
 * logged with `logFields`. Never throws; true when started.
 */
export async function startOutboxWorkflow(
  deps: OutboxStartDeps,
  start: { workflowType: string; workflowId: string; args: unknown[]; replace?: boolean; noteStarted: (knex: Knex) => Promise<unknown>; what: string; logFields: Record<string, unknown> },
): Promise<boolean> {
  try {
    if (!deps.temporal) throw new Error('no Temporal gateway');
    const client = await deps.temporal.client();
    await client.workflow.start(start.workflowType, {
      taskQueue: deps.temporal.taskQueue,
      workflowId: start.workflowId,
      workflowIdConflictPolicy: start.replace ? WorkflowIdConflictPolicy.TERMINATE_EXISTING : WorkflowIdConflictPolicy.USE_EXISTING,
      args: start.args,
    });
    await start.noteStarted(deps.knex);
    return true;
  } catch (err) {
    deps.logger.warn({ err, ...start.logFields }, `${start.what} workflow not started; the sweep will retry`);
    return false;
  }
}

/**
 * Pages through outbox rows by id (`rowsAfter(after, batch)` answers the next ids in order) and starts each,
 * stopping at the first start that fails: Temporal is away, and the next sweep tries again. Returns how
 * many were started.
 */
export async function sweepOutbox(
  rowsAfter: (after: number, batch: number) => Promise<{ id: string | number }[]>,
  start: (id: number) => Promise<boolean>,
  batch: number,
): Promise<number> {
  let after = 0;
  let started = 0;
  for (;;) {
    const rows = await rowsAfter(after, batch);
    for (const { id } of rows) {
      after = Number(id);
      if (!(await start(after))) return started;
      started++;
    }
    if (rows.length < batch) return started;
  }
}
