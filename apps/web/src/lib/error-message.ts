import { ApiError } from './api-client';

export const UNEXPECTED_ERROR =
  'An unexpected error occurred, please reload this page and try again.';

/** Per-screen wording that replaces the extracted text for a status (spec §8). */
export type StatusMessages = Partial<Record<number, string>>;

/** `first_name` → `First name`. */
export function fieldLabel(field: string): string {
  const words = field.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function messagesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(messagesOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(messagesOf);
  return [];
}

/**
 * The text to show for a failed call, in the spec's order (customer §8, staff §8):
 * a page-specific message by status; with no response body the raw text; for a 4xx the
 * non_field_errors joined, then 'Field name: message' per field; else the error's message.
 * Lines are separated by '\n' (alerts render them on separate lines).
 */
export function errorMessage(error: unknown, overrides: StatusMessages = {}): string {
  if (error instanceof ApiError) {
    const override = overrides[error.status];
    if (override !== undefined) return override;
    const body = error.body;
    if (body === null || body === undefined || typeof body !== 'object') {
      return error.text.trim() || error.message;
    }
    const record = body as Record<string, unknown>;
    if (error.status >= 400 && error.status < 500) {
      const lines: string[] = [];
      const nonField = messagesOf(record.non_field_errors);
      if (nonField.length) lines.push(nonField.join(' '));
      if (typeof record.detail === 'string') lines.push(record.detail);
      for (const [field, value] of Object.entries(record)) {
        if (field === 'non_field_errors' || field === 'detail' || field === 'code') continue;
        const messages = messagesOf(value);
        if (messages.length) lines.push(`${fieldLabel(field)}: ${messages.join(' ')}`);
      }
      return lines.join('\n') || error.message;
    }
    return typeof record.detail === 'string' ? record.detail : error.message;
  }
  if (error instanceof Error) return error.message || UNEXPECTED_ERROR;
  if (typeof error === 'string' && error) return error;
  return UNEXPECTED_ERROR;
}

/**
 * Every message in an error body without field names: how a card provider's refusal is shown
 * ('Your card was declined.'), whichever field the server filed it under.
 */
export function plainErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.body && typeof error.body === 'object') {
    const record = { ...(error.body as Record<string, unknown>) };
    delete record.code;
    const messages = messagesOf(record);
    if (messages.length) return messages.join(' ');
  }
  return errorMessage(error);
}
