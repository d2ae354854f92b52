import { z } from 'zod';
import { emailField } from './accounts';
import { charge, deskMethod } from './charges';
import { idNumber } from './common';
import { plannerEntry } from './planner';

/**
 * Walk-in now (issue 41, decision 0117): a driver at the counter, booked on a free seat from the
 * current half-hour and paid at the desk in one request. The durations the desk offers, in
 * half-hours (30 minutes to 3 hours).
 */
export const WALK_IN_HALF_HOURS = [1, 2, 3, 4, 6] as const;
export const WALK_IN_HALF_HOURS_MAX = 6;
export const WALK_IN_NAME_MAX = 150;

/** "1 hour", "1½ hours", "30 minutes": a duration as the desk says it. */
export function walkInDuration(halfHours: number): string {
  if (halfHours === 1) return '30 minutes';
  const hours = Math.floor(halfHours / 2);
  const half = halfHours % 2 === 1 ? '½' : '';
  return `${hours}${half} hour${halfHours === 2 ? '' : 's'}`;
}

export const walkInRequest = z
  .object({
    calendar: idNumber,
    half_hours: z
      .number('A valid integer is required.')
      .int('A valid integer is required.')
      .min(1, 'Choose at least 30 minutes.')
      .max(WALK_IN_HALF_HOURS_MAX, 'Choose at most 3 hours.'),
    name: z.string().trim().min(1, 'Enter the driver’s name.').max(WALK_IN_NAME_MAX),
    /** Optional: the receipt goes here, and an account with this address is theirs. */
    email: z.union([z.literal(''), emailField]).default(''),
    method: deskMethod,
    /** Made once per dialog by the client, so a double tap records the payment once. */
    idempotency_key: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, 'Use 8 to 64 letters, digits, dashes or underscores.'),
  })
  .strict();
export type WalkInRequest = z.input<typeof walkInRequest>;

/**
 * What the walk-in costs before the desk takes the money (issue 41): the same seat, duration and
 * e-mail (a known account's club standing counts), priced by the desk's one rule. Books nothing.
 */
export const walkInQuoteRequest = walkInRequest
  .pick({ calendar: true, half_hours: true, email: true })
  .strict();
export type WalkInQuoteRequest = z.input<typeof walkInQuoteRequest>;

export const walkInResponse = z.object({
  detail: z.string(),
  /** The customer booked: the account of the e-mail given, or a new one. */
  user: z.number().int(),
  entries: z.array(plannerEntry),
  /** The desk payment; null when the booking cost nothing. */
  charge: charge.nullable(),
});
export type WalkInResponse = z.infer<typeof walkInResponse>;
