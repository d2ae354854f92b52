// zod's core only (not the schemas): the web installs this map from its zod-jitless module
// before any schema loads, and the app shell, which parses nothing, does not carry zod (0045).
import { config, type $ZodRawIssue } from 'zod/v4/core';

/**
 * Every validation message zod writes itself, in words (issue 30: "at most 100", not "Too big:
 * expected number to be <=100"). One map for the server and the web alike: installed when the
 * contract loads (common.ts imports this file), so a schema's own message still wins and only
 * zod's defaults are replaced (decision 0096).
 */

const UNITS: Record<string, [one: string, many: string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  map: ['entry', 'entries'],
  file: ['byte', 'bytes'],
};

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  null: 'empty',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'e-mail address',
  url: 'web address',
  datetime: 'date and time',
  date: 'date',
  time: 'time',
  uuid: 'id',
};

function bound(value: number | bigint | Date, origin: string | undefined): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const units = origin ? UNITS[origin] : undefined;
  if (!units) return String(value);
  return `${String(value)} ${Number(value) === 1 ? units[0] : units[1]}`;
}

function wordsOf(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

/** The message for one issue; undefined leaves zod's own (a code this map does not word). */
export function validationMessage(issue: $ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'This field is required.';
      return `Must be ${TYPE_WORDS[issue.expected] ?? issue.expected}.`;
    case 'too_big': {
      const max = bound(issue.maximum, issue.origin);
      if (issue.exact) return `Must be exactly ${max}.`;
      return issue.inclusive ? `Must be at most ${max}.` : `Must be less than ${max}.`;
    }
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) === 1 && issue.inclusive !== false)
        return 'This field may not be blank.';
      const min = bound(issue.minimum, issue.origin);
      if (issue.exact) return `Must be exactly ${min}.`;
      return issue.inclusive ? `Must be at least ${min}.` : `Must be more than ${min}.`;
    }
    case 'not_multiple_of':
      return `Must be a multiple of ${String(issue.divisor)}.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Must be ${wordsOf(issue.values[0])}.`
        : `Must be one of ${issue.values.map(wordsOf).join(', ')}.`;
    case 'unrecognized_keys':
      return `Not a field here: ${issue.keys.join(', ')}.`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? 'Not in the expected format.'
        : `Not a valid ${FORMAT_WORDS[issue.format] ?? issue.format}.`;
    case 'invalid_union':
    case 'invalid_element':
    case 'invalid_key':
      return 'Not a valid value.';
    default:
      return undefined;
  }
}

config({ customError: validationMessage });
