import { ApiError } from './api-client';

export const UNEXPECTED_ERROR =
  'An unexpected error occurred, please reload this page and try again.';

/** Per-screen wording that replaces the extracted text for a status (spec §8). */
export type StatusMessages = Partial<Record<number, string>>;

/** `first_name` → `First name`; a money field without its unit (`amount_cents` → `Amount`). */
export function fieldLabel(field: string): string {
  const words = field
    .replace(/_cents$/, '')
    .replace(/[._]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A field's message as a sentence (issue 41): never "Amount cents: Ensure…". The generic checks
 * name the field in words inside the sentence; a message the server wrote as a sentence already
 * stands alone.
 */
export function fieldSentence(field: string, message: string): string {
  const the = `The ${fieldLabel(field).toLowerCase()}`;
  const generic: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/^This field is required\.?$/, () => `${the} is required.`],
    [/^This field may not be (blank|null)\.?$/, () => `${the} cannot be empty.`],
    [
      /^Ensure this value is greater than or equal to (\S+?)\.?$/,
      (m) => `${the} must be at least ${m[1]}.`,
    ],
    [
      /^Ensure this value is less than or equal to (\S+?)\.?$/,
      (m) => `${the} must be at most ${m[1]}.`,
    ],
    [
      /^Ensure this field has no more than (\d+) characters\.?$/,
      (m) => `${the} can be at most ${m[1]} characters.`,
    ],
    [/^A valid integer is required\.?$/, () => `${the} must be a whole number.`],
    [/^Enter a valid (.+?)\.?$/, (m) => `${the} is not a valid ${m[1]}.`],
    [/^"(.*)" is not a valid choice\.?$/, (m) => `${the} cannot be "${m[1]}".`],
    [/^Invalid (input|value)\b.*$/, () => `${the} is not valid.`],
  ];
  for (const [pattern, say] of generic) {
    const m = message.match(pattern);
    if (m) return say(m);
  }
  return message;
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
 * non_field_errors joined, then each field's messages as sentences naming the field in words
 * (issue 41 replaces spec §8's 'Field name: message', decision 0116); else the error's message.
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
        if (messages.length) lines.push(messages.map((m) => fieldSentence(field, m)).join(' '));
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
