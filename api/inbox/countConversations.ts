import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { scoped } from '../db/scope';
import { Segment } from '../models/Segment';
import { visibilityCondition, type ConversationViewer, type SqlCondition } from '../policy/conversations';
import { fixedScope, filterScope, parseStoredFilters, type SegmentScope } from './segmentScope';
import { andAll, BUCKET, bucketRows } from './inboxCounts';
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
 * Unread (has_new_messages, open) conversations in scope and visible, counted row by row on
 * customer_platforms_unread_idx (whose predicate this is): for the scopes the count buckets cannot express
 * (favourites, tags, contact properties).
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

function capped(db: Knex, qb: Knex.QueryBuilder, cap: number): Knex.Raw {
  return db.raw('(SELECT count(*) FROM (?) s)', [qb.select(db.raw('1')).limit(cap)]);
}

/** A sum over the visible count buckets (alias b), capped like the row counts. */
function bucketSum(db: Knex, column: 'open' | 'unread', where: SqlCondition, cap: number): Knex.Raw {
  return db.raw(`LEAST(?::bigint, coalesce(sum(${BUCKET}.${column}) FILTER (WHERE ${where.sql}), 0))`, [cap, ...where.bindings]);
}

/**
 * POST /inbox/counter in two round trips: the caller's subscribed segments, then every count in one
 * statement. "Inbox", "Meus", "Pendentes" (open, unassigned, visible) and the segments the buckets can
 * express are sums over the maintained count buckets the viewer sees (api/inbox/inboxCounts.ts, one scan of
 * the workspace's few hundred bucket rows); "Favoritos" and the other segments are counted row by row.
 */
export async function countConversations(deps: Pick<AppDeps, 'knex' | 'logger'>, viewer: ConversationViewer): Promise<InboxCounter> {
  const db = deps.knex;
  const segments = (await scoped(Segment, viewer)
    .modify('visibleTo', viewer.operatorId)
    .modify('subscribedBy', viewer.operatorId)
    .modify('sorted')
    .select('segments.id', 'segments.filters')) as unknown as Pick<Segment, 'id' | 'filters'>[];

  const visible = visibilityCondition(viewer, BUCKET);
  const sums: Record<string, Knex.Raw> = {
    all: bucketSum(db, 'unread', visible, COUNT_CAP),
    me: bucketSum(db, 'unread', { sql: `${BUCKET}.operator_id = ?`, bindings: [viewer.operatorId] }, COUNT_CAP),
    pending: bucketSum(db, 'open', andAll([{ sql: `${BUCKET}.operator_id IS NULL`, bindings: [] }, visible]), COUNT_CAP),
  };
  const rowCounts: Record<string, Knex.Raw> = {
    starred: capped(db, unread(db, viewer, fixedScope('starred', viewer)), COUNT_CAP),
  };
  const counted: number[] = [];
  for (const segment of segments) {
    const filters = parseStoredFilters(segment.filters, deps.logger);
    // Resolved conversations are never unread.
    if (filters.open === false) continue;
    const alias = `s${counted.length}`;
    const scope = filterScope(filters, viewer);
    if (scope.buckets) sums[alias] = bucketSum(db, 'unread', andAll([visible, scope.buckets]), SEGMENT_COUNT_CAP);
    else rowCounts[alias] = capped(db, unread(db, viewer, scope), SEGMENT_COUNT_CAP);
    counted.push(segment.id);
  }
  const row = await db
    .select([
      ...Object.entries(sums).map(([alias, raw]) => db.raw('? AS ??', [raw, alias])),
      ...Object.entries(rowCounts).map(([alias, raw]) => db.raw('? AS ??', [raw, alias])),
    ])
    .from(bucketRows(db, viewer.workspaceId))
    .first();

  const bySegment: Record<string, number> = {};
  for (const segment of segments) bySegment[String(segment.id)] = 0;
  counted.forEach((id, i) => {
    bySegment[String(id)] = Number(row[`s${i}`]);
  });
  return { all: Number(row.all), starred: Number(row.starred), me: Number(row.me), archived: 0, segments: bySegment, pending: Number(row.pending) };
}
