import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { likePattern } from '../http/listQuery';
import { contactMatch } from '../models/contactMatch';
import { visibilityArms, visibilityCondition, type ConversationViewer, type SqlCondition } from '../policy/conversations';
import { conversationQuery, type ConversationRow } from '../conversations/queries';
import { presentConversations, type ConversationView } from '../conversations/presenters';
import { segmentScope, type SegmentScope } from './segmentScope';
import { andAll, BUCKET, bucketRows } from './inboxCounts';
import { COUNT_CAP, type InboxListQuery } from './schema';

export interface ConversationPage {
  data: ConversationView[];
  matchCount: number;
  totalCount: number;
  nextCursor: string | null;
}

export interface Cursor {
  at: string;
  id: number;
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(row: Pick<ConversationRow, 'cursorAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([row.cursorAt, row.id])).toString('base64url');
}

export function decodeCursor(raw: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && CURSOR_AT.test(value[0]) && Number.isSafeInteger(value[1]) && value[1] > 0) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    /* reported below */
  }
  throw errors.field('cursor', 'Cursor inválido.');
}

/** Segment, state and search: everything but visibility and paging. Alias cp (customers c when searching). */
function inScope(db: Knex, viewer: ConversationViewer, scope: SegmentScope, search: string | undefined): Knex.QueryBuilder {
  const qb = db('customer_platforms as cp').where('cp.workspace_id', viewer.workspaceId);
  if (scope.finished !== null) qb.where('cp.is_finished', scope.finished);
  scope.apply(qb);
  if (search) {
    const p = likePattern(search);
    const contact = contactMatch('c', search);
    qb.join('customers as c', 'c.id', 'cp.customer_id').where((w) => {
      w.whereRaw(contact.sql, contact.bindings)
        .orWhere('cp.external_id', 'ilike', p)
        .orWhereRaw("cp.last_message->>'text' ILIKE ?", [p]);
    });
  }
  return qb;
}

function visibility(viewer: ConversationViewer, scope: SegmentScope): SqlCondition[] | null {
  return scope.ownOnly ? null : visibilityArms(viewer, 'cp');
}

/**
 * How many rows match, exact up to COUNT_CAP. Without a search, a scope the count buckets can express
 * (api/inbox/inboxCounts.ts) is the sum of the buckets the viewer sees: a few hundred small rows instead of
 * up to COUNT_CAP index entries per visibility arm. Otherwise a capped subquery never walks more than
 * COUNT_CAP rows; for a viewer with visibility arms each arm is counted on its own index and the sums
 * capped: the arms are disjoint, and one OR over all of them could only be answered by reading the whole
 * workspace.
 */
export function cappedCount(db: Knex, viewer: ConversationViewer, scope: SegmentScope, search: string | undefined): Knex.Raw {
  if (!search && scope.buckets) {
    const where = andAll([scope.ownOnly ? { sql: 'TRUE', bindings: [] } : visibilityCondition(viewer, BUCKET), scope.buckets]);
    return db.raw(`(SELECT LEAST(?::bigint, coalesce(sum(${BUCKET}.open), 0)) FROM ? WHERE ${where.sql})`, [COUNT_CAP, bucketRows(db, viewer.workspaceId), ...where.bindings]);
  }
  const capped = (condition: SqlCondition | null) => {
    const qb = inScope(db, viewer, scope, search).select(db.raw('1')).limit(COUNT_CAP);
    if (condition) qb.whereRaw(condition.sql, condition.bindings);
    return db.raw('(SELECT count(*) FROM (?) s)', [qb]);
  };
  const arms = visibility(viewer, scope);
  if (!arms) return capped(null);
  return db.raw(`(LEAST(?::bigint, ${arms.map(() => '?').join(' + ')}))`, [COUNT_CAP, ...arms.map(capped)]);
}

/**
 * The ids of one page. Each visibility arm walks its own keyset index in order and stops after the page,
 * and the union keeps the first rows of all arms (docs/data-model.md "Operator visibility with keyset
 * pages"); without a cursor, `offset` is the fallback.
 */
export function pageIds(db: Knex, viewer: ConversationViewer, scope: SegmentScope, input: InboxListQuery, cursor: Cursor | undefined): Knex.QueryBuilder {
  const take = input.limit + 1 + (cursor ? 0 : input.offset);
  const arm = (condition: SqlCondition | null) => {
    const qb = inScope(db, viewer, scope, input.query).select('cp.id', 'cp.last_message_at');
    if (condition) qb.whereRaw(condition.sql, condition.bindings);
    if (cursor) qb.whereRaw('(cp.last_message_at, cp.id) < (?::timestamptz, ?)', [cursor.at, cursor.id]);
    return qb.orderBy([{ column: 'cp.last_message_at', order: 'desc' }, { column: 'cp.id', order: 'desc' }]).limit(take);
  };
  const arms = visibility(viewer, scope);
  const source = arms ? db.raw(`(${arms.map(() => '?').join(' UNION ALL ')}) AS v`, arms.map(arm)) : db.raw('(?) AS v', [arm(null)]);
  return db
    .select('v.id')
    .from(source)
    .orderBy([{ column: 'v.last_message_at', order: 'desc' }, { column: 'v.id', order: 'desc' }])
    .limit(input.limit + 1)
    .offset(cursor ? 0 : input.offset);
}

/**
 * GET /inbox: one statement reads the page with its customer, channel, call, the caller's favourite flag
 * and the capped counts; one more reads the page's tags.
 */
export async function listConversations(deps: Pick<AppDeps, 'knex' | 'logger'>, viewer: ConversationViewer, input: InboxListQuery): Promise<ConversationPage> {
  const db = deps.knex;
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
  const scope = await segmentScope(db, viewer, input.segmentId, deps.logger);

  const rows: (ConversationRow & { matchCount: number; totalCount?: number })[] = await conversationQuery(db, viewer.workspaceId, viewer.operatorId)
    .join(pageIds(db, viewer, scope, input, cursor).as('page'), 'page.id', 'cp.id')
    .select(db.raw('? AS match_count', [cappedCount(db, viewer, scope, input.query)]))
    .modify((qb) => {
      if (input.query) qb.select(db.raw('? AS total_count', [cappedCount(db, viewer, scope, undefined)]));
    })
    .orderBy([{ column: 'cp.last_message_at', order: 'desc' }, { column: 'cp.id', order: 'desc' }]);

  let matchCount: number;
  let totalCount: number;
  if (rows.length) {
    matchCount = Number(rows[0].matchCount);
    totalCount = Number(rows[0].totalCount ?? matchCount);
  } else {
    // Past the end: the counts still describe the list.
    const counts = await db
      .select(db.raw('? AS match_count', [cappedCount(db, viewer, scope, input.query)]))
      .select(input.query ? db.raw('? AS total_count', [cappedCount(db, viewer, scope, undefined)]) : db.raw('NULL AS total_count'))
      .first();
    matchCount = Number(counts.matchCount);
    totalCount = counts.totalCount === null ? matchCount : Number(counts.totalCount);
  }

  const hasMore = rows.length > input.limit;
  const page = hasMore ? rows.slice(0, input.limit) : rows;
  return {
    data: await presentConversations(db, page),
    matchCount,
    totalCount,
    nextCursor: hasMore ? encodeCursor(page[page.length - 1]) : null,
  };
}
