import { request } from '../../providers/httpClient';

/** A list answer in the SPEC dialect (DESIGN.md §3). */
export interface ListPage<T> {
  data: T[];
  matchCount: number;
  totalCount: number;
}

/** GET an `/api` list keeping its counts (`api()` keeps only `data`). */
export async function apiList<T>(path: string, params: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<ListPage<T>> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const qs = query.toString();
  const res = await request(`/api${path}${qs ? `?${qs}` : ''}`, { signal });
  const json = (res.json ?? {}) as Partial<ListPage<T>>;
  const data = Array.isArray(json.data) ? json.data : [];
  return { data, matchCount: json.matchCount ?? data.length, totalCount: json.totalCount ?? data.length };
}
