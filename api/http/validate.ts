import { z } from 'zod';
import type { Context } from 'koa';
import { errors, type FieldError } from './errors';

z.config(z.locales.pt());

/** Turns zod issues into one ValidationError entry per field, every failing field reported at once. */
export function issuesToFields(issues: z.core.$ZodIssue[]): FieldError[] {
  const byKey = new Map<string, string[]>();
  const add = (key: string, message: string) => {
    const list = byKey.get(key) ?? [];
    if (!list.includes(message)) list.push(message);
    byKey.set(key, list);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.map(String).join('.');
      for (const k of issue.keys) add(prefix ? `${prefix}.${k}` : k, 'Campo não permitido.');
      continue;
    }
    const key = issue.path.map(String).join('.') || 'body';
    add(key, issue.message);
  }
  return [...byKey].map(([key, descriptions]) => ({ key, descriptions }));
}

export const NUL_MESSAGE = 'O texto contém um caractere inválido (NUL).';

/** At most this many NUL paths are named in one answer. */
const MAX_NUL_PATHS = 20;

/**
 * Whether any string value or object key in `input` holds a NUL. Every request body goes through it, so
 * it only looks (no path strings, no entry pairs); nulPaths names the places only for the rare body that
 * has one. Its own stack, like nulPaths.
 */
function hasNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string' || (item && typeof item === 'object')) stack.push(item);
    } else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (key.includes('\u0000')) return true;
        const item = (value as Record<string, unknown>)[key];
        if (typeof item === 'string' || (item && typeof item === 'object')) stack.push(item);
      }
    }
  }
  return false;
}

/**
 * The dotted paths (zod's `key` form) of every string value or object key in a request's input that holds
 * a NUL: PostgreSQL text and jsonb cannot store one (22021, 22P05), so it is the client's error, named
 * here before any SQL. Walks with its own stack: a 1 MB body of nested arrays must not overflow ours.
 */
export function nulPaths(input: unknown): string[] {
  if (!hasNul(input)) return [];
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[input, '']];
  const join = (prefix: string, k: string) => (prefix ? `${prefix}.${k}` : k);
  while (stack.length && found.length < MAX_NUL_PATHS) {
    const [value, at] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push(at || 'body');
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], join(at, String(i))]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i];
        if (k.includes('\u0000')) found.push(join(at, k));
        else stack.push([v, join(at, k)]);
      }
    }
  }
  return found;
}

/** Validates a request's input: its schema, and no NUL anywhere (nulPaths); every failing field at once. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nul = nulPaths(input);
  const result = schema.safeParse(input);
  if (result.success && !nul.length) return result.data;
  const fields = result.success ? [] : issuesToFields(result.error.issues);
  for (const key of nul) {
    const field = fields.find((f) => f.key === key);
    if (!field) fields.push({ key, descriptions: [NUL_MESSAGE] });
    else if (!field.descriptions.includes(NUL_MESSAGE)) field.descriptions.push(NUL_MESSAGE);
  }
  throw errors.validation(fields);
}

/** Validates the JSON body; a missing or non-object body is validated as `{}` so every required field is named. */
export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const body = (ctx.request as { body?: unknown }).body;
  const input = body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0 && !Array.isArray(body)) ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw errors.badRequest('O corpo da requisição deve ser um objeto JSON.');
  }
  return parseWith(schema, input);
}

export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  return parseWith(schema, ctx.query);
}

/** Route ids are positive integers; anything else cannot exist, so it is a 404 like any missing row. */
export function parseId(raw: unknown): number {
  // Only a string or a number can name a row: String() of a body object such as {toString: null} would throw.
  if (typeof raw !== 'string' && typeof raw !== 'number') throw errors.notFound();
  const s = String(raw);
  if (!/^[1-9][0-9]{0,9}$/.test(s)) throw errors.notFound();
  const n = Number(s);
  if (n > 2147483647) throw errors.notFound();
  return n;
}
