import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';

/** Deltas folded per statement; a backlog is drained batch by batch. */
export const COMPACT_BATCH = 5000;
/** pg advisory lock key of the compactor: one api node compacts at a time (the others skip the tick). */
const LOCK_KEY = 3_100_031;

/**
 * Folds the oldest `batch` inbox count deltas into inbox_counts (migration 20261129213000) in one
 * statement: the deleted deltas and the added counts commit together, so a reader sees them on one side
 * or the other, never both or neither. Buckets whose counts reach zero are deleted in the same
 * transaction. Deltas inserted meanwhile by uncommitted writers are not visible here and wait for the next
 * run. Answers how many deltas were folded (0 when another node holds the lock).
 */
export async function compactInboxCounts(db: Knex, batch = COMPACT_BATCH): Promise<number> {
  return db.transaction(async (trx) => {
    const [{ locked }] = (await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS locked', [LOCK_KEY])).rows as { locked: boolean }[];
    if (!locked) return 0;
    const { rows } = await trx.raw(
      `WITH moved AS (
         DELETE FROM inbox_count_deltas WHERE id IN (SELECT id FROM inbox_count_deltas ORDER BY id LIMIT ?)
         RETURNING workspace_id, channel_id, operator_id, group_id, open, unread
       ), summed AS (
         SELECT workspace_id, channel_id, operator_id, group_id, sum(open)::int AS open, sum(unread)::int AS unread
         FROM moved GROUP BY 1, 2, 3, 4
       ), added AS (
         INSERT INTO inbox_counts AS c (workspace_id, channel_id, operator_id, group_id, open, unread)
         SELECT * FROM summed WHERE open <> 0 OR unread <> 0
         ON CONFLICT (workspace_id, channel_id, operator_id, group_id) DO UPDATE SET open = c.open + EXCLUDED.open, unread = c.unread + EXCLUDED.unread
       )
       SELECT count(*)::int AS n FROM moved`,
      [batch],
    );
    const n = (rows as { n: number }[])[0].n;
    if (n) await trx.raw('DELETE FROM inbox_counts WHERE open = 0 AND unread = 0');
    return n;
  });
}

/** Compacts every `intervalMs` until stopped, draining a backlog batch by batch (api/main.ts runs it). */
export function startInboxCountCompactor(deps: Pick<AppDeps, 'knex' | 'logger'>, intervalMs = 1000): PeriodicJob {
  return runPeriodically(deps.logger, 'inbox count compaction', intervalMs, async (signal) => {
    while (!signal.aborted && (await compactInboxCounts(deps.knex)) === COMPACT_BATCH) {
      /* a full batch: there may be more */
    }
  });
}
