import type { AppDeps } from '../deps';
import type { ConversationViewer } from '../policy/conversations';
import { conversationQuery, type ConversationRow } from '../conversations/queries';
import { presentConversations, type ConversationView } from '../conversations/presenters';
import { cappedCount, decodeCursor, encodeCursor, pageIds, type Cursor } from '../inbox/listConversations';
import { segmentScope, type SegmentScope } from '../inbox/segmentScope';
import type { FixedSegment } from '../inbox/schema';
import { columnOf, columnScope, countsColumn, loadBoard, type Board, type ColumnDef } from './columns';
import type { BoardQuery, ColumnQuery } from './schema';

type Deps = Pick<AppDeps, 'knex' | 'logger'>;

export interface ColumnPage {
  data: ConversationView[];
  /** How many conversations the column holds (capped like the inbox's); null where counting is not cheap (tags). */
  matchCount: number | null;
  nextCursor: string | null;
}

export interface BoardColumn extends ColumnDef, ColumnPage {}

export interface BoardView {
  groupBy: Board['grouping'];
  funnelId: number | null;
  columns: BoardColumn[];
}

/** How many columns read at once: a board of many tags must not take the whole pool. */
const PARALLEL_COLUMNS = 4;

interface PageInput {
  segmentId: FixedSegment | number;
  query: string | undefined;
  limit: number;
  cursor: Cursor | undefined;
}

/**
 * One page of one column: the inbox's keyset page (each visibility arm walks its index and stops after the
 * page, docs/visibility.md) on the column's scope, read with the presenter's columns, plus the capped count.
 */
async function columnPage(deps: Deps, viewer: ConversationViewer, board: Board, scope: SegmentScope, input: PageInput): Promise<ColumnPage> {
  const db = deps.knex;
  const ids = pageIds(db, viewer, scope, { segmentId: input.segmentId, limit: input.limit, offset: 0, query: input.query, cursor: undefined }, input.cursor);
  const [rows, count] = await Promise.all([
    conversationQuery(db, viewer.workspaceId, viewer.operatorId)
      .join(ids.as('page'), 'page.id', 'cp.id')
      .orderBy([{ column: 'cp.last_message_at', order: 'desc' }, { column: 'cp.id', order: 'desc' }]) as Promise<ConversationRow[]>,
    countsColumn(board) ? db.select(db.raw('? AS n', [cappedCount(db, viewer, scope, input.query)])).first() : Promise.resolve(undefined),
  ]);
  const hasMore = rows.length > input.limit;
  const page = hasMore ? rows.slice(0, input.limit) : rows;
  return {
    data: await presentConversations(db, page),
    matchCount: count ? Number((count as { n: string | number }).n) : null,
    nextCursor: hasMore ? encodeCursor(page[page.length - 1]) : null,
  };
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** GET /kanban: the board's columns, each with its first page and count. */
export async function listBoard(deps: Deps, viewer: ConversationViewer, input: BoardQuery): Promise<BoardView> {
  const board = await loadBoard(deps.knex, viewer.workspaceId, input.groupBy, input.funnelId);
  const base = await segmentScope(deps.knex, viewer, input.segmentId, deps.logger);
  const pageInput: PageInput = { segmentId: input.segmentId, query: input.query, limit: input.limit, cursor: undefined };
  const columns = await inBatches(board.columns, PARALLEL_COLUMNS, async (column) => ({
    ...column,
    ...(await columnPage(deps, viewer, board, columnScope(board, base, column.key), pageInput)),
  }));
  return { groupBy: board.grouping, funnelId: board.funnelId, columns };
}

/** GET /kanban/column: the next page of one column. */
export async function listColumn(deps: Deps, viewer: ConversationViewer, input: ColumnQuery): Promise<ColumnPage> {
  const board = await loadBoard(deps.knex, viewer.workspaceId, input.groupBy, input.funnelId);
  columnOf(board, input.column);
  const base = await segmentScope(deps.knex, viewer, input.segmentId, deps.logger);
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
  return columnPage(deps, viewer, board, columnScope(board, base, input.column), { segmentId: input.segmentId, query: input.query, limit: input.limit, cursor });
}
