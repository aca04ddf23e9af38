import type { Knex } from 'knex';
import type { SegmentFilters } from '../segments/filters';
import type { SqlCondition } from '../policy/conversations';

/**
 * Reads of the maintained inbox counts (migration 20261129213000, docs/performance.md "Inbox list and
 * counters"): per bucket (channel × assignee × group) the open and the unread-and-open conversations. A
 * bucket has the columns the visibility rule reads (operator_id, group_id), so `visibilityCondition(viewer,
 * BUCKET)` selects exactly the buckets of the conversations a viewer sees.
 */

/** The alias of the bucket rows in the statements below. */
export const BUCKET = 'b';

/**
 * A workspace's buckets as one row source aliased `b` (channel_id, operator_id, group_id, open, unread):
 * the compacted rows and the deltas not compacted yet, read in the same statement (one snapshot), so each
 * committed change counts exactly once whether or not the compactor has moved it. Sums over `b` are the
 * counts; a bucket may appear in several rows.
 */
export function bucketRows(db: Knex, workspaceId: number): Knex.Raw {
  return db.raw(
    `(SELECT channel_id, operator_id, group_id, open, unread FROM inbox_counts WHERE workspace_id = ?
      UNION ALL
      SELECT channel_id, operator_id, group_id, open, unread FROM inbox_count_deltas WHERE workspace_id = ?) AS ${BUCKET}`,
    [workspaceId, workspaceId],
  );
}

/**
 * A saved segment's filters as a condition on the bucket columns, or null when a filter reads something a
 * bucket does not hold (favourites, tags, contact properties) or the segment lists resolved conversations.
 * The same meaning as applySegmentFilters (api/conversations/queries.ts) on a conversation.
 */
export function bucketSegmentCondition(filters: SegmentFilters, operatorId: number): SqlCondition | null {
  if (filters.open === false || filters.starred || filters.tags.length || filters.customerProps?.property || filters.customerProps?.value) return null;
  const parts: SqlCondition[] = [];
  if (filters.my) parts.push({ sql: `${BUCKET}.operator_id = ?`, bindings: [operatorId] });
  if (filters.assigned === true) parts.push({ sql: `${BUCKET}.operator_id IS NOT NULL`, bindings: [] });
  if (filters.assigned === false) parts.push({ sql: `${BUCKET}.operator_id IS NULL`, bindings: [] });
  if (filters.channels.length) parts.push({ sql: `${BUCKET}.channel_id = ANY(?)`, bindings: [filters.channels] });
  if (filters.groups.length) parts.push({ sql: `${BUCKET}.group_id = ANY(?)`, bindings: [filters.groups] });
  if (filters.agents.length) parts.push({ sql: `${BUCKET}.operator_id = ANY(?)`, bindings: [filters.agents] });
  return andAll(parts);
}

/** Conditions joined by AND (TRUE for none). */
export function andAll(parts: SqlCondition[]): SqlCondition {
  if (!parts.length) return { sql: 'TRUE', bindings: [] };
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), bindings: parts.flatMap((p) => p.bindings) };
}
