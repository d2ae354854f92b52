import { VOUCHER_REJECTED_MESSAGE } from '@paddock/contract/checkout-messages';
import { ApiError } from './api-client';
import { errorMessage } from './error-message';
import { outstandingSentence } from './outstanding-words';

/** Staff §8 Simulator taken: a seat of the checkout went to someone else first. */
export const SIMULATOR_TAKEN_MESSAGE =
  'Sorry, one of the simulators you selected is no longer available';
/** Customer §8 Booking: the simple reservation page's wording for the same thing. */
export const TIMESLOT_TAKEN_MESSAGE = 'Sorry, this timeslot is no longer available';
/** Staff §8 Booking failure: the Booking Error modal's text, before the server's message. */
export const BOOKING_FAILED_MESSAGE =
  'Your reservation could not be completed, there were issues processing your card.';
export { VOUCHER_REJECTED_MESSAGE };

function nonFieldErrors(error: unknown): string[] {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return [];
  const value = (error.body as Record<string, unknown>).non_field_errors;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The server's taken-seat answer: 400 with non_field_errors "The fields calendar, slot must make
 * a unique set." (the field order is not part of the promise).
 */
export function isSlotTaken(error: unknown): boolean {
  return nonFieldErrors(error).some(
    (m) => /unique set/i.test(m) && /\bcalendar\b/.test(m) && /\bslot\b/.test(m),
  );
}

/**
 * A voucher the server refused (staff §5: a 4xx shows the warning and removes the code). Only
 * answers about the voucher count: a seat taken while applying a code is not the code's fault.
 */
export function isVoucherRejection(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return false;
  if (error.status === 404) return true;
  const body = error.body;
  return !!body && typeof body === 'object' && 'voucher' in body;
}

/** Customer §8 Booking, for "Book It!" on the simple reservation page. */
export function reservationErrorMessage(error: unknown): string {
  return isSlotTaken(error) ? TIMESLOT_TAKEN_MESSAGE : errorMessage(error);
}

/** A quote or checkout that failed before any card was charged. */
export function checkoutErrorMessage(error: unknown): string {
  return isSlotTaken(error) ? SIMULATOR_TAKEN_MESSAGE : errorMessage(error);
}

/** The Booking Error modal's body: the fixed sentence followed by what the server said. */
export function bookingFailureText(error: unknown): string {
  const detail = errorMessage(error).trim();
  return detail ? `${BOOKING_FAILED_MESSAGE} ${detail}` : BOOKING_FAILED_MESSAGE;
}

/**
 * A declined card on a checkout whose seats are kept unpaid (decision 0096): the provider's
 * words, then the one sentence every place uses for the outstanding balance, with its amount.
 */
export function declinedText(error: unknown, owedCents: number, currency?: string): string {
  const detail = errorMessage(error).trim();
  const owed = outstandingSentence(owedCents, currency);
  return `${detail ? `${detail} ` : ''}${owed} Review your payment method to pay it.`;
}
