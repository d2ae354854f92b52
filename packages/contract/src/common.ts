import { z } from 'zod';
// Zod's own messages in words, on whichever side loads the contract.
import './zod-messages';

/** DRF-style 400 body: each field maps to its messages; non_field_errors for the rest. */
export const validationErrorBody = z.record(z.string(), z.array(z.string()));
export type ValidationErrorBody = z.infer<typeof validationErrorBody>;

/** 401/403/404/429 body. */
export const detailBody = z.object({ detail: z.string(), code: z.string().optional() });
export type DetailBody = z.infer<typeof detailBody>;

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;

/** The largest value of an `integer` column: ids and counts beyond it are a 400, not a 500. */
export const INT_MAX = 2_147_483_647;
const INT_REQUIRED = 'A valid integer is required.';
const atMost = (max: number) => `Ensure this value is less than or equal to ${max}.`;
const atLeast = (min: number) => `Ensure this value is greater than or equal to ${min}.`;

/** An id in a JSON body: a whole number from 1 to 2^31−1. */
export const idNumber = z
  .number(INT_REQUIRED)
  .int(INT_REQUIRED)
  .min(1, atLeast(1))
  .max(INT_MAX, atMost(INT_MAX));

/** `[lo-hi]` for two digits, or the digit itself. */
const digits = (lo: string, hi: string) => (lo === hi ? lo : `[${lo}-${hi}]`);

/** The decimal numerals (no leading zeros) of `lo`…`hi`, both of the same length, as a regex. */
function sameLengthRange(lo: string, hi: string): string {
  if (lo === hi) return lo;
  const rest = lo.length - 1;
  if (rest === 0) return digits(lo, hi);
  if (/^0*$/.test(lo.slice(1)) && /^9*$/.test(hi.slice(1)))
    return `${digits(lo[0], hi[0])}[0-9]{${rest}}`;
  if (lo[0] === hi[0]) return `${lo[0]}(?:${sameLengthRange(lo.slice(1), hi.slice(1))})`;
  const parts = [`${lo[0]}(?:${sameLengthRange(lo.slice(1), '9'.repeat(rest))})`];
  const [first, last] = [Number(lo[0]) + 1, Number(hi[0]) - 1];
  if (first <= last) parts.push(`${digits(String(first), String(last))}[0-9]{${rest}}`);
  parts.push(`${hi[0]}(?:${sameLengthRange('0'.repeat(rest), hi.slice(1))})`);
  return parts.join('|');
}

/** The numerals of the whole numbers `lo`…`hi` (0 ≤ lo ≤ hi), as alternatives of a regex. */
function rangeAlternatives(lo: number, hi: number): string[] {
  const out: string[] = [];
  for (let length = String(lo).length; length <= String(hi).length; length++) {
    const from = Math.max(lo, length === 1 ? 0 : 10 ** (length - 1));
    const to = Math.min(hi, 10 ** length - 1);
    if (from <= to) out.push(sameLengthRange(String(from), String(to)));
  }
  return out;
}

/**
 * A regex matching exactly the decimal numerals of `min`…`max` as `intText` takes them (no
 * leading zeros or plus, `-` only below zero), so the API document says which values the server
 * takes, e.g. 1…2147483647 for an id, where a digits pattern let tools send 0 or 9999999999.
 */
export function integerRangePattern(min: number, max: number): string {
  const parts: string[] = [];
  if (min < 0) parts.push(`-(?:${rangeAlternatives(Math.max(1, -max), -min).join('|')})`);
  if (max >= 0) parts.push(...rangeAlternatives(Math.max(0, min), max));
  return `^(?:${parts.join('|')})$`;
}

/**
 * A whole number written in a path or query string, parsed strictly: plain decimal digits (and a
 * leading minus when `min` < 0), so `0x10`, `1e0`, ` 1` and `01` are refused, not read as 16 or 1.
 * The document states the exact range as a pattern; the server checks the syntax and then the
 * range, to say which of the two is wrong.
 */
export const intText = (min = 1, max = INT_MAX) =>
  z
    .string()
    .regex(min < 0 ? /^(0|-?[1-9][0-9]{0,9})$/ : /^(0|[1-9][0-9]{0,9})$/, INT_REQUIRED)
    .transform(Number)
    .pipe(z.number().min(min, atLeast(min)).max(max, atMost(max)))
    .meta({ pattern: integerRangePattern(min, max) });

/** An id in a path or query: see `intText`. */
export const idText = intText(1, INT_MAX);

export const paginationQuery = z.object({
  page: intText(1).default(1),
  page_size: intText(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PaginationQuery = z.infer<typeof paginationQuery>;

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    page_count: z.number().int(),
    page_size: z.number().int(),
    results: z.array(item),
  });
}
export type Paginated<T> = { count: number; page_count: number; page_size: number; results: T[] };

export const idParam = z.object({ id: idText });

/** `me` or an id, in a path. */
export const userRef = z.union([z.literal('me'), idText]);

/** Query booleans arrive as text: accept true/false/1/0. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0', 'True', 'False'])
  .transform((v) => v === 'true' || v === '1' || v === 'True');

export const ok = z.object({ detail: z.string() });

export const UNSAFE_URL_MESSAGE =
  'Enter an address starting with http:// or https://, or a path starting with /.';

/**
 * A link staff type in that the app will render: http(s), or a path on this site. `javascript:`,
 * `data:` and other schemes would run or show content in a customer's browser.
 */
export function isSafeUrl(value: string): boolean {
  if (value === '') return true;
  // A control character or space can hide a scheme from a naive check; no real URL needs one.
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  return /^https?:\/\/[^/?#@]+(?:[/?#].*)?$/i.test(value);
}

/** A staff-entered URL field ('' allowed): see `isSafeUrl`. */
export const safeUrl = (max = 500) =>
  z.string().trim().max(max).refine(isSafeUrl, UNSAFE_URL_MESSAGE);
