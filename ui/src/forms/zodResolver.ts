import { z } from 'zod';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

// zod's own messages in Portuguese, like the API (api/http/validate.ts).
z.config(z.locales.pt());

/**
 * react-hook-form resolver over a shared zod schema (api/**\/schema.ts): the form validates exactly
 * like the API. Only the first message per field is shown, as the API reports.
 */
export function zodResolver<T extends FieldValues>(schema: z.ZodType): Resolver<T> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data as T, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? 'root');
      errors[key] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}
