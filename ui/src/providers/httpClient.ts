import type { fetchUtils } from 'ra-core';
import { shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { clearLocalData, getSession } from './session';
import { ensureFreshToken } from './tokenRenewal';

/** One entry of the API's error shape (DESIGN.md §3). */
export interface ApiErrorEntry {
  type: string;
  title?: string;
  key?: string;
  descriptions: string[];
  /** A page of the app the refusal points to (a plan limit: '/settings/billing/license'). */
  link?: string;
}

/** Error types whose `key` names a form field ('Este e-mail já está cadastrado.' is a conflict on `email`). */
const FIELD_ERROR_TYPES = new Set(['ValidationError', 'ConflictError']);

/**
 * Failure of an API call, shaped like react-admin's HttpError: `body.errors` holds only field errors
 * (`{ [key]: description }`), which react-admin forms show on the matching inputs; `descriptions` are
 * the texts to toast (SPEC §8).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly body: { errors?: Record<string, string>; entries: ApiErrorEntry[] };
  readonly descriptions: string[];

  constructor(status: number, descriptions: string[], entries: ApiErrorEntry[] = []) {
    super(descriptions.join('\n'));
    this.name = 'HttpError';
    this.status = status;
    this.descriptions = descriptions;
    const fields: Record<string, string> = {};
    for (const e of entries) {
      if (e.key && FIELD_ERROR_TYPES.has(e.type) && !(e.key in fields)) fields[e.key] = e.descriptions.join(' ');
    }
    this.body = Object.keys(fields).length > 0 ? { errors: fields, entries } : { entries };
  }

  get fieldErrors(): Record<string, string> {
    return this.body.errors ?? {};
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** The error texts for the user: the server's descriptions, the connection text or the unexpected-error text. */
export function errorDescriptions(error: unknown): string[] {
  if (error instanceof HttpError && error.descriptions.length > 0) return error.descriptions;
  return [format(texts.errors.unexpected, { status: error instanceof HttpError ? error.status : 0 })];
}

function toHttpError(status: number, json: unknown): HttpError {
  const entries = (json as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(entries) && entries.length > 0) {
    const list = entries.filter((e): e is ApiErrorEntry => typeof e === 'object' && e !== null && Array.isArray((e as ApiErrorEntry).descriptions));
    const first = list[0];
    if (first && first.descriptions.length > 0) {
      // A validation error reports every field: toast them all, each field's text also goes to its input.
      const descriptions = first.type === 'ValidationError' ? list.flatMap((e) => e.descriptions) : first.descriptions;
      return new HttpError(status, descriptions, list);
    }
  }
  return new HttpError(status, [format(texts.errors.unexpected, { status })]);
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the workspace token (default: when there is a session). */
  auth?: boolean;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
  json: any;
}

/**
 * The one HTTP client of the UI: JSON in and out, bearer token, renewal before expiry and the
 * error catalogue of SPEC §8. Throws HttpError.
 */
export async function request(url: string, options: RequestOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(options.headers ?? {}) };
  const wantsAuth = options.auth ?? getSession() !== null;
  if (wantsAuth) {
    await ensureFreshToken();
    const token = getSession()?.workspace.token;
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let body: string | FormData | undefined;
  // Multipart uploads: the browser writes the Content-Type with its boundary.
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(url, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new HttpError(0, [texts.errors.network]);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (response.status < 200 || response.status >= 300) {
    // SPEC §8: a 401 on an authenticated call logs out; without a session the app routes go to login.
    if (response.status === 401 && headers.Authorization) clearLocalData();
    throw toHttpError(response.status, json);
  }
  return { status: response.status, headers: response.headers, body: text, json };
}

/** An `/api` call answering `{data}`: resolves to `data`. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await request(`/api${path}`, options);
  return (res.json as { data: T } | undefined)?.data as T;
}

/** ra-data-simple-rest's httpClient: same client, `{data}` of single records unwrapped. */
export async function raHttpClient(url: string, options: fetchUtils.Options = {}) {
  const headers: Record<string, string> = {};
  new Headers(options.headers).forEach((value, key) => (headers[key] = value));
  const res = await request(url, {
    method: options.method,
    body: typeof options.body === 'string' ? options.body : undefined,
    headers,
    signal: options.signal ?? undefined,
  });
  const json = res.json;
  const unwrapped = json && typeof json === 'object' && !Array.isArray(json) && 'data' in json ? json.data : json;
  return { status: res.status, headers: res.headers, body: res.body, json: unwrapped };
}
