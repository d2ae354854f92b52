import { z } from 'zod';
import { authenticationAction } from './cards';
import { paginationQuery, userRef } from './common';

export {
  CENTS_PER_CREDIT,
  CLUB_MAX_SESSIONS,
  minimumSessionsMessage,
  NO_CARD_FOR_CLUB_MESSAGE,
} from './club-rules';

/** `GET /users/me/charges/credits_purchase_quote?credits=N` */
export const creditsQuoteQuery = z.object({
  credits: z.coerce
    .number({ error: 'A whole number of credits is required.' })
    .int('A whole number of credits is required.')
    .min(1, 'Ensure this value is greater than or equal to 1.')
    .max(10_000_000, 'Ensure this value is less than or equal to 10000000.'),
});
export type CreditsQuoteQuery = z.infer<typeof creditsQuoteQuery>;

/** What a month of `credits` costs: list price, the club discount, and the price charged. */
export const creditsQuote = z.object({
  quoted_cents: z.number().int(),
  discount_percent: z.number().int(),
  total_cents: z.number().int(),
  /**
   * What enrolling charges today: `total_cents`, or, when a first-race price is configured, that
   * price for the first session plus the discounted price of the rest.
   */
  first_charge_cents: z.number().int(),
});
export type CreditsQuote = z.infer<typeof creditsQuote>;

/** `POST /users/me/charges/credits_enroll` */
export const creditsEnroll = z
  .object({
    credits_amount: z
      .number({ error: 'A whole number of credits is required.' })
      .int('A whole number of credits is required.')
      .min(1, 'Ensure this value is greater than or equal to 1.')
      .max(10_000_000, 'Ensure this value is less than or equal to 10000000.'),
  })
  .strict();
export type CreditsEnroll = z.infer<typeof creditsEnroll>;

export const membershipStatus = z.enum(['active', 'past_due', 'cancelled']);

/** A user's club subscription (spec: Subscription) with the membership's terms. */
export const subscription = z.object({
  id: z.number().int(),
  /** The club's name from settings. */
  name: z.string(),
  status: membershipStatus,
  good_standing: z.boolean(),
  cancelable: z.boolean(),
  credits_per_month: z.number().int(),
  price_cents: z.number().int(),
  discount_percent: z.number().int(),
  cycle_day_of_month: z.number().int(),
  /** YYYY-MM-DD in the venue's zone. */
  next_charge_on: z.string(),
  started_at: z.string(),
  cycles_paid: z.number().int(),
  /** What cancelling now would charge back (the discounts given, within two paid cycles). */
  cancel_charge_back_cents: z.number().int(),
  credits_balance: z.number().int(),
  /** Standard sessions the balance pays for now (0 while a renewal is unpaid). */
  reservations_remaining: z.number().int(),
  /** Sessions bookable before the next renewal: the same as reservations_remaining. */
  reservations_remaining_this_month: z.number().int(),
  /** Sessions after the next renewal if nothing more is booked: balance + a month's credits. */
  reservations_remaining_next_month: z.number().int(),
});
export type Subscription = z.infer<typeof subscription>;

export const subscriptionsQuery = paginationQuery;

export const creditsEnrollResponse = z.object({
  detail: z.string(),
  credits_balance: z.number().int(),
  subscription,
});
export type CreditsEnrollResponse = z.infer<typeof creditsEnrollResponse>;

/**
 * Joining, the member on the page: their bank asks for 3-D Secure (decision 0095). Nothing is
 * charged and the membership waits; after the challenge the same `credits_enroll` finishes it.
 */
export const creditsEnrollAction = authenticationAction.extend({
  status: z.literal('requires_action'),
});
export type CreditsEnrollAction = z.infer<typeof creditsEnrollAction>;
export const creditsEnrollAnswer = z.union([creditsEnrollResponse, creditsEnrollAction]);
export type CreditsEnrollAnswer = z.infer<typeof creditsEnrollAnswer>;

export const creditsUnenrollResponse = z.object({
  detail: z.string(),
  /** What the early cancellation charged (0 after two paid cycles). */
  charge_back_cents: z.number().int(),
});
export type CreditsUnenrollResponse = z.infer<typeof creditsUnenrollResponse>;

/**
 * Cancelling, the member on the page: their bank asks for 3-D Secure for the charge-back
 * (decision 0100). Nothing is charged and the membership stays as it is; after the challenge the
 * same `credits_unenroll` finishes the cancellation.
 */
export const creditsUnenrollAction = authenticationAction.extend({
  status: z.literal('requires_action'),
});
export const creditsUnenrollAnswer = z.union([creditsUnenrollResponse, creditsUnenrollAction]);
export type CreditsUnenrollAnswer = z.infer<typeof creditsUnenrollAnswer>;

/** `/users/{id}/…` club paths: `me`, or a user id for staff with user.change_user. */
export const clubUserParam = z.object({
  id: userRef,
});
