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
