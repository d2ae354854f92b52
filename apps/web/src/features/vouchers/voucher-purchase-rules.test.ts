import { describe, expect, it } from 'vitest';
import {
  COMMENTS_TOO_LONG,
  EMPTY_VOUCHER_FORM,
  RECIPIENT_EMAIL_REQUIRED,
  SENDER_NAME_REQUIRED,
  toPurchaseBody,
  voucherAmountCents,
  voucherFormSchema,
} from './voucher-purchase-rules';

describe('voucher amount (customer §5)', () => {
  it('reads whole dollars as cents', () => {
    expect(voucherAmountCents('25')).toBe(2500);
    expect(voucherAmountCents(' 250 ')).toBe(25000);
  });

  it('counts an empty or non-integer value as 100 dollars', () => {
    expect(voucherAmountCents('')).toBe(10000);
    expect(voucherAmountCents('   ')).toBe(10000);
    expect(voucherAmountCents('25.50')).toBe(10000);
    expect(voucherAmountCents('ten')).toBe(10000);
  });
});

describe('voucher form rules', () => {
  const errorsOf = (values: object) => {
    const result = voucherFormSchema.safeParse({ ...EMPTY_VOUCHER_FORM, ...values });
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts an empty form: a $100 voucher for oneself', () => {
    expect(errorsOf({})).toEqual({});
    expect(toPurchaseBody(EMPTY_VOUCHER_FORM)).toEqual({ amount_cents: 10000 });
  });

  it('keeps the amount within the limits the server has', () => {
    expect(errorsOf({ amount: '0' })).toEqual({ amount: 'The smallest voucher is $1.' });
    expect(errorsOf({ amount: '5000' })).toEqual({ amount: 'The largest voucher is $1000.' });
  });

  it('needs the recipient e-mail and the sender name when sending to someone', () => {
    expect(errorsOf({ send_to: true })).toEqual({
      email_to: RECIPIENT_EMAIL_REQUIRED,
      email_from_name: SENDER_NAME_REQUIRED,
    });
    expect(errorsOf({ send_to: true, email_to: 'friend@', email_from_name: 'Sam' })).toEqual({
      email_to: 'Enter a valid email address.',
    });
    expect(
      errorsOf({ send_to: true, email_to: 'friend@example.com', email_from_name: 'Sam' }),
    ).toEqual({});
  });

  it('allows comments of at most 200 characters', () => {
    const sending = { send_to: true, email_to: 'friend@example.com', email_from_name: 'Sam' };
    expect(errorsOf({ ...sending, email_comments: 'x'.repeat(200) })).toEqual({});
    expect(errorsOf({ ...sending, email_comments: 'x'.repeat(201) })).toEqual({
      email_comments: COMMENTS_TOO_LONG,
    });
  });

  it('sends recipient details only when sending to someone', () => {
    expect(
      toPurchaseBody({
        amount: '25',
        send_to: false,
        email_to: 'friend@example.com',
        email_from_name: 'Sam',
        email_comments: 'Hi',
      }),
    ).toEqual({ amount_cents: 2500 });
    expect(
      toPurchaseBody({
        amount: '25',
        send_to: true,
        email_to: ' friend@example.com ',
        email_from_name: 'Sam',
        email_comments: '',
      }),
    ).toEqual({ amount_cents: 2500, email_to: 'friend@example.com', email_from_name: 'Sam' });
  });
});
