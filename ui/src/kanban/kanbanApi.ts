import { api, request } from '../providers/httpClient';
import type { Conversation } from '../inbox/types';
import type { Board, BoardParams, ColumnPage, Funnel } from './types';

export type { Board, BoardColumn, BoardParams, ColumnPage, Funnel, Stage } from './types';

/** The kanban calls of docs/kanban.md, through the one HTTP client. */

function qs(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  return search.toString();
}

const boardQuery = (p: BoardParams) => ({ groupBy: p.groupBy, funnelId: p.groupBy === 'stage' ? p.funnelId : null, segmentId: p.segment, query: p.query });

export const fetchBoard = (p: BoardParams, signal?: AbortSignal) => api<Board>(`/kanban?${qs(boardQuery(p))}`, { signal });

export async function fetchColumn(p: BoardParams, column: string, cursor: string, signal?: AbortSignal): Promise<ColumnPage> {
  const res = await request(`/api/kanban/column?${qs({ ...boardQuery(p), column, cursor })}`, { signal });
  const json = res.json as Partial<ColumnPage> | undefined;
  return { data: json?.data ?? [], matchCount: json?.matchCount ?? null, nextCursor: json?.nextCursor ?? null };
}

export const moveCard = (p: BoardParams, id: number, from: string, to: string) =>
  api<Conversation>('/kanban/move', { method: 'POST', body: { id, groupBy: p.groupBy, funnelId: p.groupBy === 'stage' ? p.funnelId : null, from, to } });

export async function fetchFunnels(signal?: AbortSignal): Promise<Funnel[]> {
  const res = await request('/api/funnels?limit=200', { signal });
  const json = res.json as { data?: Funnel[] } | undefined;
  return json?.data ?? [];
}

export interface FunnelInput {
  name: string;
  stages: { id?: number | null; name: string; color: string }[];
}
export const createFunnel = (body: FunnelInput) => api<Funnel>('/funnels', { method: 'POST', body });
export const updateFunnel = (id: number, body: FunnelInput) => api<Funnel>(`/funnels/${id}`, { method: 'PUT', body });
export const deleteFunnel = (id: number) => api<Funnel>(`/funnels/${id}`, { method: 'DELETE' });
