import { api, request } from '../../providers/httpClient';

export interface ResourcePage<Row> {
  rows: Row[];
  total: number;
}

/**
 * One page of a settings list. The API may answer in either list dialect (api/http/listQuery.ts):
 * `{data, matchCount}` (SPEC) or a bare array with Content-Range (react-admin simple-rest).
 */
export async function fetchResourcePage<Row>(endpoint: string, page: number, perPage: number, signal?: AbortSignal): Promise<ResourcePage<Row>> {
  const sep = endpoint.includes('?') ? '&' : '?';
  const res = await request(`/api${endpoint}${sep}limit=${perPage}&offset=${page * perPage}`, { signal });
  const json = res.json as { data?: Row[]; matchCount?: number } | Row[] | undefined;
  if (Array.isArray(json)) {
    const range = /\/(\d+)$/.exec(res.headers.get('Content-Range') ?? '');
    return { rows: json, total: range ? Number(range[1]) : json.length };
  }
  const rows = json?.data ?? [];
  return { rows, total: json?.matchCount ?? rows.length };
}

/** Every row of a small reference list (agents, groups) for pickers. */
export async function fetchAll<Row>(endpoint: string, signal?: AbortSignal): Promise<Row[]> {
  return (await fetchResourcePage<Row>(endpoint, 0, 1000, signal)).rows;
}

export const resourceApi = {
  get: <Row>(endpoint: string, id: number) => api<Row>(`${endpoint}/${id}`),
  create: <Row>(endpoint: string, body: unknown) => api<Row>(endpoint, { method: 'POST', body }),
  update: <Row>(endpoint: string, id: number, body: unknown) => api<Row>(`${endpoint}/${id}`, { method: 'PUT', body }),
  remove: (endpoint: string, id: number) => api<unknown>(`${endpoint}/${id}`, { method: 'DELETE' }),
};

/** SPEC §9 truncation: the full text stays in the cell's title. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** Where a settings screen reads and writes its rows; `endpointSource` covers the generic CRUD routes. */
export interface ResourceSource<Row> {
  page: (page: number, perPage: number, signal?: AbortSignal) => Promise<ResourcePage<Row>>;
  get: (id: number) => Promise<Row>;
  create: (body: unknown) => Promise<Row>;
  update: (id: number, body: unknown) => Promise<Row>;
  /** Absent when the API deletes no such record. */
  remove?: (id: number) => Promise<unknown>;
}

/** GET list, GET/PUT/DELETE `/:id`, POST under `/api${endpoint}` (api/crud/resourceRouter.ts). */
export function endpointSource<Row>(endpoint: string): ResourceSource<Row> {
  return {
    page: (page, perPage, signal) => fetchResourcePage<Row>(endpoint, page, perPage, signal),
    get: (id) => resourceApi.get<Row>(endpoint, id),
    create: (body) => resourceApi.create<Row>(endpoint, body),
    update: (id, body) => resourceApi.update<Row>(endpoint, id, body),
    remove: (id) => resourceApi.remove(endpoint, id),
  };
}
