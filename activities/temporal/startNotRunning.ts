import type { AppDeps } from '../../api/deps';
import type { TemporalGateway } from '../../api/temporal/client';

/** What a start-up reconcile needs: the database, a logger and, when it is reachable, Temporal. */
export type ReconcileDeps = Pick<AppDeps, 'knex' | 'logger'> & Partial<Pick<AppDeps, 'temporal'>>;

/**
 * The start-up reconcile of rows that each own one long-running workflow (a campaign's run, a QR line's
 * connection): every row whose workflow is not running gets it started (the caller's start keeps a run
 * started meanwhile); a start that fails is logged and left for the next start-up. Answers how many were
 * started.
 */
export async function startNotRunning<Row>(
  temporal: TemporalGateway,
  rows: Row[],
  workflow: { id: (row: Row) => string; start: (row: Row) => Promise<unknown>; failed: (err: unknown, row: Row) => void },
): Promise<number> {
  const client = await temporal.client();
  let started = 0;
  for (const row of rows) {
    const running = await client.workflow
      .getHandle(workflow.id(row))
      .describe()
      .then((d) => d.status.name === 'RUNNING', () => false);
    if (running) continue;
    try {
      await workflow.start(row);
      started++;
    } catch (err) {
      workflow.failed(err, row);
    }
  }
  return started;
}
