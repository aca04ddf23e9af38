import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useRealtimeEvent, useRealtimeStatus } from '../realtime/RealtimeProvider';
import { useSession } from '../providers/session';
import type { Conversation } from '../inbox/types';
import { applyToBoard, removeCard } from './board';
import { fetchBoard, fetchColumn, fetchFunnels, type Board, type BoardParams } from './kanbanApi';

/** react-query keys of the kanban; dropped with the rest of the cache on a workspace switch. */
export const kanbanKeys = {
  all: ['kanban'] as const,
  boards: () => ['kanban', 'board'] as const,
  board: (p: BoardParams) => ['kanban', 'board', p.groupBy, p.groupBy === 'stage' ? p.funnelId : null, p.segment, p.query] as const,
  funnels: () => ['kanban', 'funnels'] as const,
};

/** The filter a board query was made with, read back from its key. */
const filterOf = (key: QueryKey) => ({ segment: String(key[4] ?? 'all'), query: String(key[5] ?? '') });

/** Live events keep the board fresh; a refetch is a safety net. */
const LIVE_STALE_MS = 60_000;

export function useBoard(p: BoardParams, enabled: boolean) {
  return useQuery<Board>({
    queryKey: kanbanKeys.board(p),
    queryFn: ({ signal }) => fetchBoard(p, signal),
    enabled,
    staleTime: LIVE_STALE_MS,
    retry: (count, error) => (error as { status?: number }).status !== 404 && count < 1,
  });
}

export const useFunnels = () => useQuery({ queryKey: kanbanKeys.funnels(), queryFn: ({ signal }) => fetchFunnels(signal), staleTime: 5 * 60_000, retry: false });

/** The next page of one column, appended to the loaded board (a card a live move already placed is not repeated). */
export function useLoadMore(p: BoardParams) {
  const qc = useQueryClient();
  return useCallback(
    async (column: string) => {
      const key = kanbanKeys.board(p);
      const cursor = qc.getQueryData<Board>(key)?.columns.find((c) => c.key === column)?.nextCursor;
      if (!cursor) return;
      const page = await fetchColumn(p, column, cursor);
      qc.setQueryData<Board>(key, (board) =>
        board
          ? {
              ...board,
              columns: board.columns.map((col) =>
                col.key === column && col.nextCursor === cursor
                  ? { ...col, data: [...col.data, ...page.data.filter((c) => !col.data.some((x) => x.id === c.id))], nextCursor: page.nextCursor, matchCount: page.matchCount ?? col.matchCount }
                  : col,
              ),
            }
          : board,
      );
    },
    [qc, p],
  );
}

/** A conversation's new state on every loaded board (our own move's answer, or a live event). */
export function applyToBoards(qc: QueryClient, c: Conversation, me: number): void {
  for (const [key, board] of qc.getQueriesData<Board>({ queryKey: kanbanKeys.boards() })) {
    if (!board) continue;
    const placed = applyToBoard(board, filterOf(key), c, me);
    if (placed.unknown) void qc.invalidateQueries({ queryKey: key, exact: true, refetchType: 'active' });
    else qc.setQueryData<Board>(key, placed.board);
  }
}

const LIVE_EVENTS = new Set(['chat.newCall', 'chat.callStatus', 'chat.newMessage', 'chat.conversationRemoved', 'kanban.funnelChanged']);

/**
 * The board's side of the one MQTT connection (the inbox's own hook keeps the inbox caches and the sound):
 * the events the inbox reads move cards between columns; a changed funnel reloads funnels and the boards
 * grouped by stage.
 */
export function useKanbanRealtime(): void {
  const qc = useQueryClient();
  const me = useSession()?.user.id ?? 0;
  const status = useRealtimeStatus();

  useRealtimeEvent((event) => {
    if (!LIVE_EVENTS.has(event.event)) return;
    const data = (event.data ?? {}) as { conversation?: Conversation; conversationId?: number; funnelId?: number };
    if (event.event === 'kanban.funnelChanged') {
      void qc.invalidateQueries({ queryKey: kanbanKeys.funnels() });
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'kanban' && q.queryKey[1] === 'board' && q.queryKey[2] === 'stage' });
      return;
    }
    if (event.event === 'chat.conversationRemoved') {
      const id = data.conversationId;
      if (!id) return;
      for (const [key, board] of qc.getQueriesData<Board>({ queryKey: kanbanKeys.boards() })) if (board) qc.setQueryData<Board>(key, removeCard(board, id));
      return;
    }
    if (data.conversation) applyToBoards(qc, data.conversation, me);
  });

  // Events published before the subscription was in place, or while offline, are read back: the first time the
  // connection is up (the board may have loaded before) and after every reconnection.
  const last = useRef(status);
  useEffect(() => {
    const before = last.current;
    last.current = status;
    if (status !== 'online' || before === 'online') return;
    void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'kanban' && q.queryKey[1] === 'board' && (q.state.dataUpdatedAt > 0 || q.state.fetchStatus === 'fetching') });
  }, [status, qc]);
}
