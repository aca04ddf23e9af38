import type { AppDeps } from '../../deps';
import { runPeriodically, type PeriodicJob } from '../../jobs/runPeriodically';
import { handleMetaBatch, type MetaPayload } from './webhook';

type BatchDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

/** How long the request that stored a batch owns it before the sweep may take it. */
const LIVE_CLAIM_S = 60;
/** After this many failed passes a batch is given up (kept with its last error, for inspection). */
const MAX_ATTEMPTS = 10;

/** Stores a verified batch, claimed for the request that received it. One insert: this is all the 200 waits for. */
export async function storeMetaBatch(deps: Pick<AppDeps, 'knex'>, payload: MetaPayload): Promise<number> {
  const [row]: { id: number }[] = await deps.knex('meta_webhook_batches')
    .insert({
      object: String(payload.object ?? '').slice(0, 40),
      payload: JSON.stringify(payload),
      claimedUntil: deps.knex.raw('now() + make_interval(secs => ?)', [LIVE_CLAIM_S]),
    })
    .returning('id');
  return row.id;
}

/** Processes one stored batch and marks it; a failure hands the claim back for the sweep. Never throws. */
export async function processMetaBatch(deps: BatchDeps, id: number, payload?: MetaPayload): Promise<boolean> {
  try {
    const body = payload ?? ((await deps.knex('meta_webhook_batches').where({ id }).first('payload'))?.payload as MetaPayload | undefined);
    if (!body) return true;
    await handleMetaBatch(deps, body);
    await deps.knex('meta_webhook_batches').where({ id }).update({ processedAt: deps.knex.fn.now(), attempts: deps.knex.raw('attempts + 1'), lastError: null, claimedUntil: null });
    return true;
  } catch (err) {
    deps.logger.error({ err, batchId: id }, 'meta webhook batch failed; the sweep tries again');
    await deps.knex('meta_webhook_batches')
      .where({ id })
      .update({
        attempts: deps.knex.raw('attempts + 1'),
        lastError: String((err as Error)?.message ?? err).slice(0, 2000),
        claimedUntil: null,
        processedAt: deps.knex.raw('CASE WHEN attempts + 1 >= ? THEN now() ELSE NULL END', [MAX_ATTEMPTS]),
      })
      .catch((e: unknown) => deps.logger.error({ err: e, batchId: id }, 'meta webhook batch not marked'));
    return false;
  }
}

/** Claims due batches (unprocessed, no live claim) and processes them, oldest first. */
export async function sweepMetaBatches(deps: BatchDeps, limit = 20): Promise<number> {
  const due = deps.knex('meta_webhook_batches')
    .whereNull('processed_at')
    .where((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', deps.knex.fn.now()))
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id');
  const rows: { id: number }[] = await deps.knex('meta_webhook_batches')
    .whereIn('id', due)
    .update({ claimedUntil: deps.knex.raw('now() + make_interval(secs => ?)', [LIVE_CLAIM_S]) })
    .returning('id');
  for (const { id } of rows.sort((a, b) => a.id - b.id)) await processMetaBatch(deps, id);
  return rows.length;
}

/** Processed batches are kept a week (to look into what Meta sent), then dropped a thousand at a time. */
export async function purgeProcessedMetaBatches(deps: Pick<AppDeps, 'knex'>, keepDays = 7): Promise<number> {
  const old = deps.knex('meta_webhook_batches').whereNotNull('processed_at').where('processed_at', '<', deps.knex.raw('now() - make_interval(days => ?)', [keepDays])).limit(1000).select('id');
  return deps.knex('meta_webhook_batches').whereIn('id', old).delete();
}

/** The api's sweep for batches whose processing died or failed (every 15 s), and the purge of old ones. */
export function startMetaBatchSweep(deps: BatchDeps): PeriodicJob {
  return runPeriodically(deps.logger, 'meta webhook sweep', 15_000, async () => {
    await sweepMetaBatches(deps);
    await purgeProcessedMetaBatches(deps);
  });
}
