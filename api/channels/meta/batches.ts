import type { AppDeps } from '../../deps';
import type { PeriodicJob } from '../../jobs/runPeriodically';
import { processStoredHook, purgeProcessedHooks, startStoredHookSweep, storeHook, sweepStoredHooks } from '../hooks/store';
import type { MetaPayload } from './webhook';

type BatchDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

/**
 * Meta's batches in the hook store (api/channels/hooks/store.ts), under the names the api and its tests
 * know: `/api/hooks/meta` stores a verified batch (source `meta`), answers, then processes it
 * (meta/inbound.ts); the sweep takes what did not finish.
 */
export function storeMetaBatch(deps: Pick<AppDeps, 'knex'>, payload: MetaPayload): Promise<number> {
  return storeHook(deps, 'meta', String(payload.object ?? ''), { channelIds: [], payload });
}

export function processMetaBatch(deps: BatchDeps, id: number, payload?: MetaPayload): Promise<boolean> {
  return processStoredHook(deps, id, payload ? { source: 'meta', verified: { channelIds: [], payload } } : undefined);
}

export const sweepMetaBatches: (deps: BatchDeps, limit?: number) => Promise<number> = sweepStoredHooks;
export const purgeProcessedMetaBatches: (deps: Pick<AppDeps, 'knex'>, keepDays?: number) => Promise<number> = purgeProcessedHooks;
/** The sweep of every stored webhook (Meta's batches and WhatsApp Cloud bodies alike). */
export const startMetaBatchSweep: (deps: BatchDeps) => PeriodicJob = startStoredHookSweep;
