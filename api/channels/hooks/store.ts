import type { AppDeps } from '../../deps';
import { runPeriodically, type PeriodicJob } from '../../jobs/runPeriodically';
import { hookInbounds, type InboundChannelDeps, type VerifiedHook } from '../inbound';
// The halves that process stored rows are the registered ones: a sweep works in any process that loads this.
import '../index';

/**
 * The hook store (docs/architecture.md, "How a request flows"): a verified webhook body whose channel
 * answers once it is stored (`answer: 'stored'`, api/channels/inbound.ts) is kept here in one insert, answered,
 * then processed; a row whose processing died or failed is taken again by the api's sweep. Processing is
 * idempotent (message ids unique per channel), so a second pass stores nothing twice. The rows live in
 * `hook_events`, by `source`: 'meta' for Messenger/Instagram, 'whatsapp' for WhatsApp Cloud, 'telegram', and
 * 'asaas' for the payment provider's notifications (api/billing/webhook.ts, registerHookProcessor);
 * not tenant-owned: one body may carry entries of several workspaces.
 */

type StoreDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'> & Partial<Pick<AppDeps, 'temporal'>>;

/** What processes a stored row of one source. */
export type HookProcessor = (deps: StoreDeps, verified: VerifiedHook) => Promise<unknown>;

/**
 * Sources that are no channel (the payment provider's webhook, api/billing/webhook.ts) register their
 * processor here, so their rows get the same store, answer and sweep without being a channel type.
 */
const otherProcessors = new Map<string, HookProcessor>();

export function registerHookProcessor(source: string, process: HookProcessor): void {
  otherProcessors.set(source, process);
}

/** The processor of a source's rows: a registered one, else the registered `stored` inbound half of that source (or type). */
function processorOf(source: string): HookProcessor | undefined {
  const other = otherProcessors.get(source);
  if (other) return other;
  const inbound = hookInbounds().find((candidate) => candidate.answer === 'stored' && (candidate.source ?? candidate.type) === source);
  return inbound && ((deps, verified) => inbound.process(deps as InboundChannelDeps, verified));
}

/** How long the request that stored a row owns it before the sweep may take it. */
const LIVE_CLAIM_S = 60;
/** After this many failed passes a row is given up (kept with its last error, for inspection). */
const MAX_ATTEMPTS = 10;

/** Stores a verified body, claimed for the request that received it. One insert: this is all the answer waits for. */
export async function storeHook(deps: Pick<AppDeps, 'knex'>, source: string, object: string, verified: VerifiedHook): Promise<number> {
  const [row]: { id: number }[] = await deps.knex('hook_events')
    .insert({
      source,
      object: object.slice(0, 40),
      payload: JSON.stringify(source === 'meta' ? verified.payload : verified),
      claimedUntil: deps.knex.raw('now() + make_interval(secs => ?)', [LIVE_CLAIM_S]),
    })
    .returning('id');
  return row.id;
}

/** A stored row as its processor takes it: Meta's rows keep the bare batch (as before the store was shared). */
function verifiedOf(source: string, payload: unknown): VerifiedHook {
  return source === 'meta' ? { channelIds: [], payload } : (payload as VerifiedHook);
}

/** Processes one stored row and marks it; a failure hands the claim back for the sweep. Never throws. */
export async function processStoredHook(deps: StoreDeps, id: number, stored?: { source: string; verified: VerifiedHook }): Promise<boolean> {
  try {
    let source = stored?.source;
    let verified = stored?.verified;
    if (!stored) {
      const row: { source: string; payload: unknown } | undefined = await deps.knex('hook_events').where({ id }).first('source', 'payload');
      if (!row) return true;
      source = row.source;
      verified = verifiedOf(row.source, row.payload);
    }
    const process = processorOf(source!);
    if (!process) throw new Error(`no processor for hook source ${source}`);
    await process(deps, verified!);
    await deps.knex('hook_events').where({ id }).update({ processedAt: deps.knex.fn.now(), attempts: deps.knex.raw('attempts + 1'), lastError: null, claimedUntil: null });
    return true;
  } catch (err) {
    deps.logger.error({ err, batchId: id }, 'stored webhook failed; the sweep tries again');
    await deps.knex('hook_events')
      .where({ id })
      .update({
        attempts: deps.knex.raw('attempts + 1'),
        lastError: String((err as Error)?.message ?? err).slice(0, 2000),
        claimedUntil: null,
        processedAt: deps.knex.raw('CASE WHEN attempts + 1 >= ? THEN now() ELSE NULL END', [MAX_ATTEMPTS]),
      })
      .catch((e: unknown) => deps.logger.error({ err: e, batchId: id }, 'stored webhook not marked'));
    return false;
  }
}

/** Claims due rows (unprocessed, no live claim) and processes them, oldest first. */
export async function sweepStoredHooks(deps: StoreDeps, limit = 20): Promise<number> {
  const due = deps.knex('hook_events')
    .whereNull('processed_at')
    .where((q) => void q.whereNull('claimed_until').orWhere('claimed_until', '<', deps.knex.fn.now()))
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id');
  const rows: { id: number }[] = await deps.knex('hook_events')
    .whereIn('id', due)
    .update({ claimedUntil: deps.knex.raw('now() + make_interval(secs => ?)', [LIVE_CLAIM_S]) })
    .returning('id');
  for (const { id } of rows.sort((a, b) => a.id - b.id)) await processStoredHook(deps, id);
  return rows.length;
}

/** Processed rows are kept a week (to look into what the provider sent), then dropped a thousand at a time. */
export async function purgeProcessedHooks(deps: Pick<AppDeps, 'knex'>, keepDays = 7): Promise<number> {
  const old = deps.knex('hook_events').whereNotNull('processed_at').where('processed_at', '<', deps.knex.raw('now() - make_interval(days => ?)', [keepDays])).limit(1000).select('id');
  return deps.knex('hook_events').whereIn('id', old).delete();
}

/** The api's sweep for stored webhooks whose processing died or failed (every 15 s), and the purge of old ones. */
export function startStoredHookSweep(deps: StoreDeps): PeriodicJob {
  return runPeriodically(deps.logger, 'stored webhook sweep', 15_000, async () => {
    await sweepStoredHooks(deps);
    await purgeProcessedHooks(deps);
  });
}
