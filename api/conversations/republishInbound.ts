import type { Knex } from 'knex';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';
import type { AppDeps } from '../deps';
import type { InboundResult } from './types';
import { publishConversationEvent } from './fanout';
import { poolWaiters } from '../db/poolState';
import { preparedStatement } from '../db/prepared';
import { coalescing } from '../db/coalesce';

type RepublishDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

/** One statement of every inbound message, prepared once (api/db/prepared.ts). */
const markPublished = preparedStatement('inbound_mark_published', ['ids'], (knex, p) =>
  knex('inbound_events').whereRaw('id = ANY (?::bigint[])', [p.ids]).whereNull('published_at').update({ publishedAt: knex.fn.now() }),
);

/** The marks of messages published while another mark is on its way go out together (api/db/coalesce.ts). */
const markCoalesced = coalescing<number, true>(async (knex, ids) => {
  await markPublished.rows(knex, { ids });
  return new Map(ids.map((id) => [id, true]));
});

/**
 * Marks an inbound event's realtime as sent (receiveInbound, right after its chat.newMessage, before the
 * answer: an acknowledged message is never published twice). Resolves once the mark is committed.
 */
export async function markInboundPublished(knex: Knex, eventId: number): Promise<void> {
  await markCoalesced(knex, eventId);
}

/**
 * How long a claim keeps other sweepers away. A batch stops publishing (and hands back what is left) once
 * half of it has passed, so a live lease never expires under a publish in progress.
 */
const LEASE_MS = 60_000;

export interface RepublishOptions {
  /** Only events processed at least this long ago: younger ones may still be on their way out. */
  olderThanMs?: number;
  /** Events claimed per batch. */
  limit?: number;
  /** Aborted (api stopping): the batch hands back what it has not published yet and returns. */
  signal?: AbortSignal;
  /**
   * True while live work is waiting (startInboundRepublisher: requests queued for a pool connection): the
   * batch then stops after the event in progress and hands back the rest, so a backlog left by an overload
   * or a crash is republished in the gaps of live traffic instead of competing with it (bench/README.md,
   * ingest). At least one event per batch goes out, so a backlog always moves.
   */
  yieldTo?: () => boolean;
}

interface ClaimedEvent {
  id: number;
  workspaceId: number;
  processedAt: Date;
  result: InboundResult | null;
}

/**
 * One autocommitted statement: leases up to `limit` due events (processed, unpublished, no live lease) to
 * this sweeper. SKIP LOCKED plus the lease keep two sweepers off the same rows; the row locks end with the
 * statement, so nothing is held while publishing.
 */
async function claimDueEvents(knex: Knex, olderThanMs: number, limit: number, leaseMs: number): Promise<ClaimedEvent[]> {
  const due = knex('inbound_events')
    .whereNull('published_at')
    .whereNotNull('processed_at')
    .where('processed_at', '<', knex.raw('now() - make_interval(secs => ?)', [olderThanMs / 1000]))
    .where((q) => void q.whereNull('publish_claimed_until').orWhere('publish_claimed_until', '<', knex.fn.now()))
    .orderBy('processed_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('id');
  const rows: ClaimedEvent[] = await knex('inbound_events')
    .whereIn('id', due)
    .update({ publishClaimedUntil: knex.raw('now() + make_interval(secs => ?)', [leaseMs / 1000]) })
    .returning(['id', 'workspace_id', 'processed_at', knex.raw("payload->'result' AS result")]);
  return rows.sort((a, b) => a.processedAt.getTime() - b.processedAt.getTime() || a.id - b.id);
}

/** Hands claimed events back unpublished: the next sweep (of any process) takes them again. */
async function releaseClaims(knex: Knex, ids: number[]): Promise<void> {
  if (ids.length) await knex('inbound_events').whereIn('id', ids).whereNull('published_at').update({ publishClaimedUntil: null });
}

/**
 * The recovery sweep of inbound realtime (docs/reliability.md): events that were committed (stored,
 * processed) but whose chat.newMessage never went out — the process died between the commit and the
 * publish — are published now. Publish after commit (DESIGN.md §6), never inside a transaction: a batch is
 * claimed with a lease in one statement, each event is published with no transaction or lock held, and only
 * an event whose publish succeeded is marked published; a failed one is handed back for the next sweep.
 * Several api processes can sweep at once without publishing one event twice; a process that dies with a
 * lease leaves it to expire, and those events are published again (at least once: clients apply a message
 * by id). One batch; resolves to how many were published.
 */
export async function republishInbound(deps: RepublishDeps, options: RepublishOptions = {}): Promise<number> {
  const olderThanMs = options.olderThanMs ?? 10_000;
  const claimedAt = Date.now();
  const claimed = await claimDueEvents(deps.knex, olderThanMs, options.limit ?? 100, LEASE_MS);
  const stopAt = claimedAt + LEASE_MS / 2;
  let published = 0;
  const failed: number[] = [];
  let next = 0;
  try {
    for (; next < claimed.length; next++) {
      if (options.signal?.aborted || Date.now() > stopAt || (next > 0 && options.yieldTo?.())) break;
      const { id, workspaceId, result } = claimed[next];
      // An event with nothing to publish (no result, a duplicate) is marked all the same.
      const sent = !result || result.duplicate || (await publishConversationEvent(deps, 'chat.newMessage', workspaceId, result.conversationId, { messageId: result.messageId }));
      if (!sent) {
        failed.push(id);
        continue;
      }
      await deps.knex('inbound_events').where({ id }).update({ publishedAt: deps.knex.fn.now(), publishClaimedUntil: null });
      published++;
    }
  } finally {
    // A mark that threw leaves the rest under the lease: it expires and they are swept again.
    await releaseClaims(deps.knex, [...failed, ...claimed.slice(next).map((e) => e.id)]).catch((err: unknown) =>
      deps.logger.warn({ err }, 'inbound republish claims not released (they expire)'),
    );
  }
  if (published) deps.logger.warn({ count: published }, 'inbound events republished after an interrupted publish');
  if (failed.length) deps.logger.warn({ count: failed.length }, 'inbound events not republished: retried on the next sweep');
  return published;
}

/**
 * Runs the sweep every `intervalMs` (first run after one interval, so clients reconnecting after a
 * restart are subscribed again); a backlog is drained batch by batch while whole batches go out. It never
 * delays serving requests: it starts after the server listens, holds no transaction, publishes one
 * event at a time, and steps aside (until the next tick) while requests wait for a pool connection. A failed run (database down) is logged and retried at the next tick.
 */
export function startInboundRepublisher(deps: RepublishDeps, intervalMs = 5000, options: RepublishOptions = {}): PeriodicJob {
  const limit = options.limit ?? 100;
  return runPeriodically(deps.logger, 'inbound republish sweep', intervalMs, async (signal) => {
    const yieldTo = options.yieldTo ?? (() => poolWaiters(deps.knex) > 0);
    while (!signal.aborted && (await republishInbound(deps, { ...options, limit, signal, yieldTo })) === limit) {
      // A whole batch went out: more may be waiting.
    }
  });
}
