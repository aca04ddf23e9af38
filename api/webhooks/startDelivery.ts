import { workflowIds } from '../../workflows/ids';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';
import { startOutboxWorkflow, sweepOutbox, type OutboxStartDeps } from '../temporal/outboxStarts';
import type { WebhookDeliveryInput } from '../../workflows/webhooks/webhookDelivery';

export type StartDeps = OutboxStartDeps;

/**
 * Starts `webhook:{deliveryId}` and notes `workflow_started_at` on the row. A second start of a running
 * delivery is harmless (id-conflict policy USE_EXISTING: the running workflow is kept); a start after its
 * workflow closed runs it again, and the activity does nothing for a row that is no longer `pending`.
 * A start that fails leaves the row pending and unstarted: the sweep (`startUnstartedDeliveries`) starts it
 * later. Never throws.
 */
export function startDelivery(deps: StartDeps, deliveryId: number, options: { replaceFinished?: boolean } = {}): Promise<boolean> {
  const input: WebhookDeliveryInput = { deliveryId };
  return startOutboxWorkflow(deps, {
    workflowType: 'webhookDelivery',
    workflowId: workflowIds.webhook(deliveryId),
    args: [input],
    // A replay of a finished delivery may catch its old run between the activity's last write and the
    // workflow's return; that run has nothing left to do, so it is replaced instead of reused.
    replace: options.replaceFinished,
    noteStarted: (knex) => knex('webhook_deliveries').where({ id: deliveryId }).whereNull('workflow_started_at').update({ workflowStartedAt: knex.fn.now() }),
    what: 'webhook delivery',
    logFields: { deliveryId },
  });
}

/** After the event's transaction committed: starts the workflows of the deliveries it recorded, in id order. */
export async function dispatchDeliveries(deps: StartDeps, deliveryIds: readonly number[]): Promise<void> {
  for (const id of [...deliveryIds].sort((a, b) => a - b)) await startDelivery(deps, id);
}

export interface SweepOptions {
  /** Leaves younger unstarted rows to the dispatcher of the request that recorded them. */
  olderThanMs?: number;
  /** Rows per query; the sweep pages through all of them. */
  batch?: number;
}

/**
 * Starts the workflow of every pending delivery whose start never happened (the process died between the
 * commit and the dispatch, or Temporal was unreachable then), oldest first. Run at worker start and
 * periodically (`startDeliverySweeper`). Returns how many were started.
 */
export async function startUnstartedDeliveries(deps: StartDeps, options: SweepOptions = {}): Promise<number> {
  const { olderThanMs = 30_000, batch = 200 } = options;
  const cutoff = new Date(Date.now() - olderThanMs);
  return sweep(deps, batch, (q) => q.whereNull('workflow_started_at').where('created_at', '<=', cutoff));
}

/**
 * Worker start: every pending delivery gets its workflow (re)started. Running ones are left alone
 * (USE_EXISTING); one whose workflow is gone (a lost Temporal history, a terminated run) starts again and
 * carries on from the row's attempts. Returns how many were asked for.
 */
export async function reconcileDeliveries(deps: StartDeps, options: Pick<SweepOptions, 'batch'> = {}): Promise<number> {
  return sweep(deps, options.batch ?? 200, (q) => q);
}

type Query = ReturnType<StartDeps['knex']>;

function sweep(deps: StartDeps, batch: number, where: (q: Query) => Query): Promise<number> {
  const rowsAfter = (after: number, limit: number) =>
    where(deps.knex('webhook_deliveries').where({ status: 'pending' }).where('id', '>', after)).orderBy('id').limit(limit).select('id');
  return sweepOutbox(rowsAfter, (id) => startDelivery(deps, id), batch);
}

/** Runs `startUnstartedDeliveries` every `intervalMs` (never two at once) until stopped. */
export function startDeliverySweeper(deps: StartDeps, options: SweepOptions & { intervalMs?: number } = {}): PeriodicJob {
  const { intervalMs = 60_000, ...sweepOptions } = options;
  return runPeriodically(deps.logger, 'webhook delivery sweep', intervalMs, async () => {
    const n = await startUnstartedDeliveries(deps, sweepOptions);
    if (n) deps.logger.info({ started: n }, 'unstarted webhook deliveries started');
  });
}
