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

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw errors.validation(issuesToFields(result.error.issues));
  return result.data;
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
  const s = String(raw ?? '');
  if (!/^[1-9][0-9]{0,9}$/.test(s)) throw errors.notFound();
  const n = Number(s);
  if (n > 2147483647) throw errors.notFound();
  return n;
}
