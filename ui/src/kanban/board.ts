import { NONE_COLUMN, type KanbanGrouping } from '../../../api/kanban/schema';
import { comesBefore } from '../inbox/cache';
import type { Conversation } from '../inbox/types';
import type { Board, BoardColumn } from './types';

/**
 * Pure updates of a loaded board (docs/kanban.md "Live"), shared by live events and by the answers of our
 * own moves: a conversation's new state puts its card in the column(s) it now belongs to, at its place in
 * the inbox order, and takes it out of the others, so the board follows without refetching.
 */

/** The columns a conversation belongs to on a board of this grouping (several for tags: one per tag). */
export function columnsFor(grouping: KanbanGrouping, board: Pick<Board, 'columns'>, c: Conversation): string[] {
  const exists = (key: string) => board.columns.some((col) => col.key === key);
  switch (grouping) {
    case 'status':
      return [c.isFinished ? 'resolved' : c.operatorId === null ? 'waiting' : 'active'];
    case 'group':
      return c.groupId !== null ? (exists(String(c.groupId)) ? [String(c.groupId)] : []) : [NONE_COLUMN];
    case 'tag': {
      if (c.tags.length === 0) return [NONE_COLUMN];
      return c.tags.map((t) => String(t.id)).filter(exists);
    }
    case 'stage': {
      const stage = c.stageId ?? null;
      return stage !== null && exists(String(stage)) ? [String(stage)] : [NONE_COLUMN];
    }
  }
}

/**
 * Whether the conversation is in the board's filter: the inbox's built-in segments (with 'Status' the
 * columns are the states, so the segment's open/resolved choice does not apply); undefined for a saved
 * filter or a search, which only the server can evaluate.
 */
export function inFilter(grouping: KanbanGrouping, segment: string, query: string, c: Conversation, me: number): boolean | undefined {
  if (query) return undefined;
  const anyState = grouping === 'status';
  switch (segment) {
    case 'all':
      return anyState || !c.isFinished;
    case 'me':
      return (anyState || !c.isFinished) && c.operatorId === me;
    case 'archived':
      return anyState || c.isFinished;
    case 'starred':
      return c.starred;
    default:
      return undefined;
  }
}

export function findCard(board: Board | undefined, id: number): Conversation | undefined {
  for (const col of board?.columns ?? []) {
    const hit = col.data.find((c) => c.id === id);
    if (hit) return hit;
  }
  return undefined;
}

/** The columns holding the card now. */
export function columnsHolding(board: Board, id: number): string[] {
  return board.columns.filter((col) => col.data.some((c) => c.id === id)).map((col) => col.key);
}

const bump = (n: number | null, by: number) => (n === null ? null : Math.max(0, n + by));

function withoutCard(col: BoardColumn, id: number): BoardColumn {
  if (!col.data.some((c) => c.id === id)) return col;
  return { ...col, data: col.data.filter((c) => c.id !== id), matchCount: bump(col.matchCount, -1) };
}

/**
 * The card at its place in a column's loaded cards (inbox order). Past the last loaded card while the
 * column has more pages it is left out (the next page brings it), as the inbox list does.
 */
function withCard(col: BoardColumn, c: Conversation): BoardColumn {
  const had = col.data.some((x) => x.id === c.id);
  const data = col.data.filter((x) => x.id !== c.id);
  const at = data.findIndex((x) => comesBefore(c, x));
  if (at >= 0) data.splice(at, 0, c);
  else if (!col.nextCursor) data.push(c);
  else return had ? { ...col, data, matchCount: bump(col.matchCount, -1) } : { ...col, matchCount: bump(col.matchCount, 1) };
  return { ...col, data, matchCount: had ? col.matchCount : bump(col.matchCount, 1) };
}

/** The card leaves the board (it left the viewer's view, or the filter). */
export function removeCard(board: Board, id: number): Board {
  return { ...board, columns: board.columns.map((col) => withoutCard(col, id)) };
}

/** The card in exactly `keys`, out of every other column. */
export function placeCard(board: Board, c: Conversation, keys: string[]): Board {
  return { ...board, columns: board.columns.map((col) => (keys.includes(col.key) ? withCard(col, c) : withoutCard(col, c.id))) };
}

export type Placement = { board: Board; unknown: false } | { board: Board; unknown: true };

/**
 * A conversation's new state on a loaded board. `unknown` when the board's filter cannot be evaluated here
 * and the card was not on the board: the caller refetches (the server says whether it belongs).
 */
export function applyToBoard(board: Board, filter: { segment: string; query: string }, c: Conversation, me: number): Placement {
  const known = findCard(board, c.id);
  const next = known ? { ...c, starred: known.starred } : c;
  const belongs = inFilter(board.groupBy, filter.segment, filter.query, next, me);
  if (belongs === false) return { board: removeCard(board, c.id), unknown: false };
  if (belongs === undefined && !known) return { board, unknown: true };
  return { board: placeCard(board, next, columnsFor(board.groupBy, board, next)), unknown: false };
}

/** The conversation as the move will likely leave it, shown until the server answers. */
export function guessAfterMove(grouping: KanbanGrouping, c: Conversation, to: string, me: number): Conversation {
  const id = to === NONE_COLUMN ? null : Number(to);
  switch (grouping) {
    case 'status':
      if (to === 'resolved') return { ...c, isFinished: true };
      return { ...c, isFinished: false, operatorId: to === 'waiting' ? null : (c.operatorId ?? me) };
    case 'group':
      return { ...c, groupId: id };
    case 'stage':
      return { ...c, stageId: id };
    case 'tag':
      return c;
  }
}

/**
 * What the board looks like right after a drop, before the server answers: the card leaves `from` for `to`
 * (tags: only the tag it was dragged from is swapped; 'none' clears them all).
 */
export function optimisticMove(board: Board, c: Conversation, from: string, to: string): Board {
  if (board.groupBy === 'tag') {
    const keys = to === NONE_COLUMN ? [NONE_COLUMN] : [...new Set([...columnsHolding(board, c.id).filter((k) => k !== from && k !== NONE_COLUMN), to])];
    return placeCard(board, c, keys);
  }
  return placeCard(board, c, [to]);
}

/**
 * How long the customer has waited for an answer: since their last message, while it is the conversation's
 * last one and the conversation is open (docs/kanban.md "Cards"); undefined otherwise.
 */
export function waitingMs(c: Conversation, now: number): number | undefined {
  const last = c.lastMessage;
  if (c.isFinished || !last || last.sender !== 'customer') return undefined;
  const at = Date.parse(last.createdAt || c.lastMessageAt);
  return Number.isNaN(at) ? undefined : Math.max(0, now - at);
}
