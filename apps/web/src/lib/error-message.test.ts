import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { UNEXPECTED_ERROR, errorMessage, fieldLabel, plainErrorMessage } from './error-message';

describe('errorMessage (spec §8)', () => {
  it('uses a page-specific message for its status first', () => {
    const error = new ApiError(404, { detail: 'Not found.' }, '');
    expect(errorMessage(error, { 404: 'Voucher code not found!' })).toBe('Voucher code not found!');
  });

  it('shows the raw text when the answer had no JSON body', () => {
    expect(errorMessage(new ApiError(502, null, 'Bad Gateway'))).toBe('Bad Gateway');
    expect(errorMessage(new ApiError(500, null, ''))).toBe('Request failed with status 500');
  });

  it('speaks of money fields in words (issue 41)', () => {
    const error = new ApiError(
      400,
      {
        amount_cents: ['Ensure this value is greater than or equal to 1.'],
        reservations: ['Booking 7 is not an unpaid booking of this customer.'],
      },
      '',
    );
    expect(errorMessage(error)).toBe(
      'The amount must be at least 1.\nBooking 7 is not an unpaid booking of this customer.',
    );
  });

  it('joins non_field_errors, then each field as a sentence, never "Field name: message"', () => {
    const error = new ApiError(
      400,
      {
        non_field_errors: ['Nope.', 'Still nope.'],
        first_name: ['This field is required.'],
        zip_code: ['Too long.', 'Bad.'],
      },
      '',
    );
    expect(errorMessage(error)).toBe(
      'Nope. Still nope.\nThe first name is required.\nToo long. Bad.',
    );
  });

  it('shows the detail of 401/403/404 bodies without their code', () => {
    const error = new ApiError(401, { detail: 'Token expired', code: 'token_not_valid' }, '');
    expect(errorMessage(error)).toBe('Token expired');
  });

  it('uses the detail or the message for other failures', () => {
    expect(errorMessage(new ApiError(500, { detail: 'A server error occurred.' }, ''))).toBe(
      'A server error occurred.',
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorMessage(undefined)).toBe(UNEXPECTED_ERROR);
  });

  it('labels fields in words', () => {
    expect(fieldLabel('contact_phone')).toBe('Contact phone');
    expect(fieldLabel('reservations.0.slot')).toBe('Reservations 0 slot');
  });
});

describe('plainErrorMessage (card provider messages)', () => {
  it('shows the messages without field names', () => {
    const error = new ApiError(400, { number: ['Your card number is invalid.'] }, '');
    expect(plainErrorMessage(error)).toBe('Your card number is invalid.');
    const declined = new ApiError(
      402,
      { detail: 'Your card was declined.', code: 'payment_failed' },
      '',
    );
    expect(plainErrorMessage(declined)).toBe('Your card was declined.');
  });
});
