import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { scoped } from '../db/scope';
import { Segment } from '../models/Segment';
import { canSeeConversation, visibilityCondition, type ConversationViewer } from '../policy/conversations';
import { fixedScope, filterScope, parseStoredFilters, type SegmentScope } from './segmentScope';
import { COUNT_CAP } from './schema';

/** Custom segments are counted up to this ("999+" in the sidebar): an odd filter stays bounded. */
export const SEGMENT_COUNT_CAP = 1000;

export interface InboxCounter {
  all: number;
  starred: number;
  me: number;
  archived: 0;
  segments: Record<string, number>;
  pending: number;
}

/**
 * Unread (has_new_messages, open) conversations in scope and visible. The predicate is exactly
 * customer_platforms_unread_idx's, so each count reads that small index, never the whole table.
 */
function unread(db: Knex, viewer: ConversationViewer, scope: SegmentScope): Knex.QueryBuilder {
  const qb = db('customer_platforms as cp').where('cp.workspace_id', viewer.workspaceId).whereRaw('cp.has_new_messages AND NOT cp.is_finished');
  scope.apply(qb);
  if (!scope.ownOnly) {
    const c = visibilityCondition(viewer, 'cp');
    qb.whereRaw(`(${c.sql})`, c.bindings);
  }
  return qb;
}

/**
 * Which unassigned conversations the viewer sees, by group, asked of canSeeConversation (the one rule):
 * null when every one (a group the viewer is not in is visible too). Pending counts then need only
 * group_id, which customer_platforms_waiting_idx holds, so they never read the table.
 */
function unassignedVisibility(viewer: ConversationViewer): { ungrouped: boolean; ids: number[] } | null {
  const sees = (groupId: number | null) => canSeeConversation(viewer, { workspaceId: viewer.workspaceId, operatorId: null, groupId });
  if (sees(-1)) return null;
  return { ungrouped: sees(null), ids: viewer.groupIds.filter((g) => sees(g)) };
}

function capped(db: Knex, qb: Knex.QueryBuilder, cap: number): Knex.Raw {
  return db.raw('(SELECT count(*) FROM (?) s)', [qb.select(db.raw('1')).limit(cap)]);
}

/**
 * POST /inbox/counter in two round trips: the caller's subscribed segments, then every count in one
 * statement. `pending` (open, unassigned, visible) has the predicate of customer_platforms_waiting_idx and
 * its visibility in group_id only (unassignedVisibility).
 */
export async function countConversations(deps: Pick<AppDeps, 'knex' | 'logger'>, viewer: ConversationViewer): Promise<InboxCounter> {
  const db = deps.knex;
  const segments = (await scoped(Segment, viewer)
    .modify('visibleTo', viewer.operatorId)
    .modify('subscribedBy', viewer.operatorId)
    .modify('sorted')
    .select('segments.id', 'segments.filters')) as unknown as Pick<Segment, 'id' | 'filters'>[];

  const pending = db('customer_platforms as cp').where('cp.workspace_id', viewer.workspaceId).whereRaw('cp.operator_id IS NULL AND NOT cp.is_finished');
  const groups = unassignedVisibility(viewer);
  if (groups) {
    pending.where((w) => {
      if (groups.ungrouped) w.orWhereNull('cp.group_id');
      if (groups.ids.length) w.orWhereRaw('cp.group_id = ANY(?)', [groups.ids]);
      if (!groups.ungrouped && !groups.ids.length) w.whereRaw('FALSE');
    });
  }

  const columns: Record<string, Knex.Raw> = {
    all: capped(db, unread(db, viewer, fixedScope('all', viewer)), COUNT_CAP),
    me: capped(db, unread(db, viewer, fixedScope('me', viewer)), COUNT_CAP),
    starred: capped(db, unread(db, viewer, fixedScope('starred', viewer)), COUNT_CAP),
    pending: capped(db, pending, COUNT_CAP),
  };
  const counted: number[] = [];
  for (const segment of segments) {
    const filters = parseStoredFilters(segment.filters, deps.logger);
    // Resolved conversations are never unread.
    if (filters.open === false) continue;
    columns[`s${counted.length}`] = capped(db, unread(db, viewer, filterScope(filters, viewer)), SEGMENT_COUNT_CAP);
    counted.push(segment.id);
  }
  const row = await db.select(Object.entries(columns).map(([alias, raw]) => db.raw('? AS ??', [raw, alias]))).first();

  const bySegment: Record<string, number> = {};
  for (const segment of segments) bySegment[String(segment.id)] = 0;
  counted.forEach((id, i) => {
    bySegment[String(id)] = Number(row[`s${i}`]);
  });
  return { all: Number(row.all), starred: Number(row.starred), me: Number(row.me), archived: 0, segments: bySegment, pending: Number(row.pending) };
}
