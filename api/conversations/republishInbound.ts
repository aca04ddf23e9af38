import type { Knex } from 'knex';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';
import type { AppDeps } from '../deps';
import type { InboundResult } from './types';
import { publishConversationEvent } from './fanout';

type RepublishDeps = Pick<AppDeps, 'knex' | 'logger' | 'publisher' | 'config'>;

/** Marks an inbound event's realtime as sent (receiveInbound, right after its chat.newMessage). */
export async function markInboundPublished(knex: Knex, eventId: number): Promise<void> {
  await knex('inbound_events').where({ id: eventId }).whereNull('published_at').update({ publishedAt: knex.fn.now() });
}

export interface RepublishOptions {
  /** Only events processed at least this long ago: younger ones may still be on their way out. */
  olderThanMs?: number;
  limit?: number;
}

/**
 * The recovery sweep of inbound realtime (docs/reliability.md): events that were committed (stored,
 * processed) but whose chat.newMessage never went out — the process died between the commit and the
 * publish — are published now and marked. Rows are locked with SKIP LOCKED, so several api processes can
 * sweep at once without publishing one event twice; a crash in the middle publishes those again
 * (at least once: clients apply a message by id). Resolves to how many were published.
 */
export async function republishInbound(deps: RepublishDeps, options: RepublishOptions = {}): Promise<number> {
  const olderThanMs = options.olderThanMs ?? 10_000;
  return deps.knex.transaction(async (trx) => {
    const rows: { id: number; workspaceId: number; result: InboundResult | null }[] = await trx('inbound_events')
      .whereNull('published_at')
      .whereNotNull('processed_at')
      .where('processed_at', '<', trx.raw(`now() - make_interval(secs => ?)`, [olderThanMs / 1000]))
      .orderBy('processed_at')
      .limit(options.limit ?? 200)
      .forUpdate()
      .skipLocked()
      .select('id', 'workspace_id', trx.raw("payload->'result' AS result"));
    for (const row of rows) {
      const result = row.result;
      if (result && !result.duplicate) {
        await publishConversationEvent(deps, 'chat.newMessage', row.workspaceId, result.conversationId, { messageId: result.messageId });
      }
    }
    if (rows.length) {
      await trx('inbound_events')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .update({ publishedAt: trx.fn.now() });
      deps.logger.warn({ count: rows.length }, 'inbound events republished after an interrupted publish');
    }
    return rows.length;
  });
}

/**
 * Runs the sweep every `intervalMs` (first run after one interval, so clients reconnecting after a
 * restart are subscribed again). A failed run (database down) is logged and retried at the next tick.
 */
export function startInboundRepublisher(deps: RepublishDeps, intervalMs = 5000, options: RepublishOptions = {}): PeriodicJob {
  return runPeriodically(deps.logger, 'inbound republish sweep', intervalMs, () => republishInbound(deps, options));
}
