import type { Context } from 'koa';
import { errors } from './errors';
import { NUL_MESSAGE, nulPaths } from './validate';

/**
 * One parser and one writer for list requests, in both dialects the API speaks:
 * - SPEC: `limit`, `offset`, `query`, plain field filters → `{data, matchCount, totalCount}`
 * - react-admin simple-rest: `sort=["f","ASC"]`, `range=[0,24]`, `filter={...}` → bare array + Content-Range
 */
export interface ListQuery {
  dialect: 'spec' | 'simple-rest';
  limit: number;
  offset: number;
  query?: string;
  sort: { field: string; order: 'asc' | 'desc' };
  /** Field filters with allow-listed keys; `ids` carries react-admin's getMany `filter={id:[...]}`. */
  filter: Record<string, unknown>;
  ids?: number[];
}

export interface ListOptions {
  sortable: readonly string[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  filterable?: readonly string[];
  defaultLimit?: number;
  maxLimit?: number;
}

export interface ListResult<T> {
  rows: T[];
  matchCount: number;
  totalCount: number;
}

function json(raw: unknown, name: string): unknown {
  if (typeof raw !== 'string') throw errors.field(name, 'Parâmetro inválido.');
  try {
    return JSON.parse(raw);
  } catch {
    throw errors.field(name, 'Parâmetro inválido: JSON malformado.');
  }
}

function nonNegativeInt(raw: unknown, name: string): number {
  const s = String(raw);
  if (!/^[0-9]{1,9}$/.test(s)) throw errors.field(name, 'Deve ser um número inteiro não negativo.');
  return Number(s);
}

type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * A field filter is a value or a flat list of values (`whereIn`); anything deeper (react-admin never sends
 * it) would reach SQL as a nested array or an object, so it is refused here with the field named.
 */
function filterValue(key: string, value: unknown): Scalar | Scalar[] {
  if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) {
    if (nulPaths(value).length) throw errors.field('filter', `${NUL_MESSAGE} (${key})`);
    return value;
  }
  throw errors.field('filter', `Filtro inválido para ${key}: use um valor ou uma lista de valores.`);
}

function parseIds(value: unknown): number[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every(isScalar)) throw errors.field('filter', 'Identificadores inválidos.');
  const ids = list.map((v) => Number(v));
  if (ids.some((n) => !Number.isInteger(n) || n < 1 || n > 2147483647)) throw errors.field('filter', 'Identificadores inválidos.');
  return ids;
}

export function parseListQuery(ctx: Context, options: ListOptions): ListQuery {
  const q = ctx.query;
  const maxLimit = options.maxLimit ?? 1000;
  const filterable = new Set(options.filterable ?? []);
  const simpleRest = q.range !== undefined || q.sort !== undefined || q.filter !== undefined;
  let limit = options.defaultLimit ?? 20;
  let offset = 0;
  let sort = options.defaultSort;
  const filter: Record<string, unknown> = {};
  let query: string | undefined;
  let ids: number[] | undefined;

  if (simpleRest) {
    if (q.range !== undefined) {
      const range = json(q.range, 'range');
      if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n) && n >= 0) || range[1] < range[0]) {
        throw errors.field('range', 'Intervalo inválido.');
      }
      offset = range[0];
      limit = range[1] - range[0] + 1;
    }
    if (q.sort !== undefined) {
      const s = json(q.sort, 'sort');
      if (!Array.isArray(s) || s.length !== 2 || typeof s[0] !== 'string' || !/^(ASC|DESC)$/i.test(String(s[1]))) {
        throw errors.field('sort', 'Ordenação inválida.');
      }
      if (!options.sortable.includes(s[0])) throw errors.field('sort', `Não é possível ordenar por ${s[0]}.`);
      sort = { field: s[0], order: String(s[1]).toLowerCase() as 'asc' | 'desc' };
    }
    if (q.filter !== undefined) {
      const f = json(q.filter, 'filter');
      if (!f || typeof f !== 'object' || Array.isArray(f)) throw errors.field('filter', 'Filtro inválido.');
      for (const [k, v] of Object.entries(f as Record<string, unknown>)) {
        if (k === 'q') query = typeof v === 'string' ? v : undefined;
        else if (k === 'id') ids = parseIds(v);
        else if (filterable.has(k)) filter[k] = filterValue(k, v);
        else throw errors.field('filter', `Filtro desconhecido: ${k}.`);
      }
    }
  } else {
    if (q.limit !== undefined) limit = nonNegativeInt(q.limit, 'limit');
    if (q.offset !== undefined) offset = nonNegativeInt(q.offset, 'offset');
    if (typeof q.query === 'string') query = q.query;
    for (const k of filterable) if (q[k] !== undefined) filter[k] = filterValue(k, q[k]);
  }
  if (query !== undefined && nulPaths(query).length) throw errors.field('query', NUL_MESSAGE);
  if (limit < 1) limit = 1;
  if (limit > maxLimit) limit = maxLimit;
  if (query !== undefined) {
    query = query.trim().slice(0, 200);
    if (!query) query = undefined;
  }
  return { dialect: simpleRest ? 'simple-rest' : 'spec', limit, offset, query, sort, filter, ids };
}

/** Writes a list in the dialect it was asked in. */
export function writeList<T>(ctx: Context, resource: string, q: ListQuery, result: ListResult<T>): void {
  if (q.dialect === 'simple-rest') {
    const end = result.rows.length ? q.offset + result.rows.length - 1 : q.offset;
    ctx.set('Content-Range', `${resource} ${q.offset}-${end}/${result.matchCount}`);
    ctx.set('Access-Control-Expose-Headers', 'Content-Range');
    ctx.body = result.rows;
    return;
  }
  ctx.body = { data: result.rows, matchCount: result.matchCount, totalCount: result.totalCount };
}

/** Escapes a user's search text for use inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
