import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { errorDescriptions, HttpError } from '../providers/httpClient';

/**
 * Shows a failed call on the form: ValidationError entries with a key go to the matching field;
 * returns the texts that belong to no field (for the form's alert or a toast), or [] when every
 * error landed on a field.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, fields: readonly string[], setError: UseFormSetError<T>): string[] {
  if (error instanceof HttpError) {
    const fieldErrors = error.fieldErrors;
    const keys = Object.keys(fieldErrors);
    const placed = keys.filter((k) => fields.includes(k));
    for (const key of placed) setError(key as Path<T>, { type: 'server', message: fieldErrors[key] }, { shouldFocus: key === placed[0] });
    if (keys.length > 0 && placed.length === keys.length) return [];
    if (placed.length > 0) return keys.filter((k) => !placed.includes(k)).map((k) => fieldErrors[k]!);
  }
  return errorDescriptions(error);
}

/** Client-side errors on values the form does not show (a link's token or e-mail): they go to the alert. */
export function hiddenFieldErrors(errors: Record<string, { message?: unknown } | undefined>, visible: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([key]) => !visible.includes(key))
    .map(([, e]) => (typeof e?.message === 'string' ? e.message : ''))
    .filter(Boolean);
}

/**
 * Toasts for a failed save: the page's own SPEC text when the failure is about the fields (they
 * show their messages), otherwise the catalogue texts (connection lost, server descriptions).
 */
export function failureToasts(error: unknown, pageText?: string): string[] {
  if (error instanceof HttpError && Object.keys(error.fieldErrors).length > 0) return pageText ? [pageText] : [];
  if (error instanceof HttpError && error.descriptions.length > 0) return error.descriptions;
  return pageText ? [pageText] : errorDescriptions(error);
}
