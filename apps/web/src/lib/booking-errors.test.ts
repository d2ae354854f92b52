import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import {
  bookingFailureText,
  checkoutErrorMessage,
  isSlotTaken,
  isVoucherRejection,
  reservationErrorMessage,
} from './booking-errors';

const apiError = (status: number, body: unknown) =>
  new ApiError(status, body, body === null ? 'Bad Gateway' : '');
const taken = apiError(400, {
  non_field_errors: ['The fields calendar, slot must make a unique set.'],
});

describe('booking error mapping', () => {
  it('recognises the uniqueness answer in either field order', () => {
    expect(isSlotTaken(taken)).toBe(true);
    expect(
      isSlotTaken(
        apiError(400, { non_field_errors: ['The fields slot, calendar must make a unique set.'] }),
      ),
    ).toBe(true);
    expect(isSlotTaken(apiError(400, { non_field_errors: ['Something else.'] }))).toBe(false);
    expect(isSlotTaken(new Error('The fields calendar, slot must make a unique set.'))).toBe(false);
  });

  it('maps a taken seat to each screen’s own wording', () => {
    expect(checkoutErrorMessage(taken)).toBe(
      'Sorry, one of the simulators you selected is no longer available',
    );
    expect(reservationErrorMessage(taken)).toBe('Sorry, this timeslot is no longer available');
  });

  it('shows other non-field errors as they are, then field errors as sentences (0116), else the message', () => {
    expect(reservationErrorMessage(apiError(400, { non_field_errors: ['Closed today.'] }))).toBe(
      'Closed today.',
    );
    expect(
      reservationErrorMessage(apiError(400, { slot: ['This time has already started.'] })),
    ).toBe('This time has already started.');
    expect(reservationErrorMessage(new Error('Network down'))).toBe('Network down');
  });

  it('treats only answers about the voucher as a rejected code', () => {
    expect(
      isVoucherRejection(
        apiError(400, {
          voucher: ['The discount code you entered was not found or has already been used'],
        }),
      ),
    ).toBe(true);
    expect(isVoucherRejection(apiError(404, { detail: 'Not found.' }))).toBe(true);
    expect(isVoucherRejection(taken)).toBe(false);
    expect(isVoucherRejection(apiError(500, { voucher: ['x'] }))).toBe(false);
    expect(isVoucherRejection(new Error('offline'))).toBe(false);
  });

  it('puts the server’s message after the Booking Error sentence', () => {
    expect(
      bookingFailureText(
        apiError(402, { detail: 'Your card was declined.', code: 'payment_failed' }),
      ),
    ).toBe(
      'Your reservation could not be completed, there were issues processing your card. Your card was declined.',
    );
    expect(bookingFailureText(apiError(502, null))).toBe(
      'Your reservation could not be completed, there were issues processing your card. Bad Gateway',
    );
  });
});
