import { z } from 'zod';

/**
 * A required one-line text of a form (a tag's name, a group's name, a widget's description …): trimmed,
 * not empty, at most `max` characters, each failure in the form's own words. Shared by the API's schemas and
 * the UI's forms, so this file imports only zod.
 */
export function requiredText(max: number, messages: { required: string; tooLong: string }) {
  return z.string({ error: messages.required }).trim().min(1, messages.required).max(max, messages.tooLong);
}

/**
 * A whole number given in a query string (`?limit=20`): digits only, else the field's error; absent, the
 * `fallback`; above `max`, `max`.
 */
export function queryInt(fallback: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,9}$/, 'Deve ser um número inteiro não negativo.')
    .transform(Number)
    .optional()
    .transform((n) => Math.min(n ?? fallback, max));
}

/**
 * Whether `s` is a calendar day as AAAA-MM-DD that PostgreSQL has a date for: a real day of its month and a
 * year from 1 (`Date.parse` takes '2026-02-30' as 2 March and has a year 0; either reaching `::date` was a 500).
 */
export function isCalendarDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || s.startsWith('0000')) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** A day given in a query string (`?from=2026-01-31`): isCalendarDay, else the field's `message`. */
export function queryDay(message: string) {
  return z.string().refine(isCalendarDay, message);
}
