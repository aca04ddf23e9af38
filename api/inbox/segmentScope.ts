import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { errors } from '../http/errors';
import { scoped } from '../db/scope';
import { Segment } from '../models/Segment';
import { SegmentFiltersSchema, type SegmentFilters } from '../segments/filters';
import { applySegmentFilters } from '../conversations/queries';
import type { ConversationViewer, SqlCondition } from '../policy/conversations';
import type { FixedSegment } from './schema';
import { BUCKET, bucketSegmentCondition } from './inboxCounts';

/** What an inbox segment selects, before visibility and search. */
export interface SegmentScope {
  /** false: open conversations, true: resolved ones, null: either. */
  finished: boolean | null;
  /** Conditions on customer_platforms aliased cp. */
  apply(qb: Knex.QueryBuilder): Knex.QueryBuilder;
  /** Every conversation in scope is visible anyway (own assigned ones): visibility arms can be skipped. */
  ownOnly: boolean;
  /**
   * The scope's open conversations as a condition on the maintained count buckets (alias b,
   * api/inbox/inboxCounts.ts), or null when the scope reads more than a bucket holds (resolved ones,
   * favourites, tags, contact properties) and must be counted row by row.
   */
  buckets: SqlCondition | null;
}

const NO_FILTERS: SegmentFilters = SegmentFiltersSchema.parse({});

/** Stored filters that no longer parse (written by an older editor) select by the parts that do not fail. */
export function parseStoredFilters(raw: unknown, logger?: Logger): SegmentFilters {
  const parsed = SegmentFiltersSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  logger?.warn({ issues: parsed.error.issues }, 'segment filters do not parse; ignoring them');
  return NO_FILTERS;
}

export function filterScope(filters: SegmentFilters, viewer: ConversationViewer): SegmentScope {
  return {
    // docs/api/inbox.md: custom segments list open conversations unless the filter asks for resolved ones.
    finished: filters.open === false,
    apply: (qb) => applySegmentFilters(qb, filters, viewer.operatorId),
    ownOnly: filters.my === true,
    buckets: bucketSegmentCondition(filters, viewer.operatorId),
  };
}

export function fixedScope(segment: FixedSegment, viewer: ConversationViewer): SegmentScope {
  switch (segment) {
    case 'all':
      return { finished: false, apply: (qb) => qb, ownOnly: false, buckets: { sql: 'TRUE', bindings: [] } };
    case 'me':
      return { finished: false, apply: (qb) => qb.where('cp.operator_id', viewer.operatorId), ownOnly: true, buckets: { sql: `${BUCKET}.operator_id = ?`, bindings: [viewer.operatorId] } };
    case 'archived':
      return { finished: true, apply: (qb) => qb, ownOnly: false, buckets: null };
    case 'starred':
      return {
        finished: null,
        apply: (qb) =>
          qb.whereIn('cp.id', (sub) => {
            sub.from('customer_platform_favorites as f').where({ 'f.workspace_id': viewer.workspaceId, 'f.operator_id': viewer.operatorId }).select('f.customer_platform_id');
          }),
        ownOnly: false,
        buckets: null,
      };
  }
}

/** A custom segment the caller may use (own or public); another's private one or a foreign id is a 404. */
export async function loadSegmentFilters(db: Knex, viewer: ConversationViewer, segmentId: number, logger?: Logger): Promise<SegmentFilters> {
  const row = (await scoped(Segment, viewer).modify('visibleTo', viewer.operatorId).where('segments.id', segmentId).first()) as Segment | undefined;
  if (!row) throw errors.notFound('Segmento não encontrado.');
  return parseStoredFilters(row.filters, logger);
}

export async function segmentScope(db: Knex, viewer: ConversationViewer, segmentId: FixedSegment | number, logger?: Logger): Promise<SegmentScope> {
  if (typeof segmentId === 'string') return fixedScope(segmentId, viewer);
  return filterScope(await loadSegmentFilters(db, viewer, segmentId, logger), viewer);
}
