import type { z } from 'zod';
import { ApiError } from './api-client';
import { showError } from './alerts';

/** Messages by field path (`opening_hours.1`, `name`), from the form's check or the server's 400. */
export type FieldErrors = Record<string, string>;

/** The contract's issues, keyed like the server's 400 (dotted paths). */
export function issuesToErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'non_field_errors';
    out[key] = out[key] ? `${out[key]} ${issue.message}` : issue.message;
  }
  return out;
}

/** A 400's field messages, or null when the failure was something else. */
export function serverFieldErrors(error: unknown): FieldErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.body) return null;
  const out: FieldErrors = {};
  for (const [field, value] of Object.entries(error.body as Record<string, unknown>))
    out[field] = Array.isArray(value) ? value.join(' ') : String(value);
  return out;
}

/**
 * A form's save failed: a 400's messages go on their fields, anything else is an alert.
 * `onError: onSaveError(setErrors)`.
 */
export const onSaveError = (setErrors: (errors: FieldErrors) => void) => (error: unknown) => {
  const fields = serverFieldErrors(error);
  if (fields) setErrors(fields);
  else showError(error);
};

/** Every message at `path` or below it, joined: a day's overlap and its ranges' own errors. */
export function errorsUnder(errors: FieldErrors, path: string): string | undefined {
  const found = Object.entries(errors)
    .filter(([key]) => key === path || key.startsWith(`${path}.`))
    .map(([, message]) => message);
  return found.length ? found.join(' ') : undefined;
}
