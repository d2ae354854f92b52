import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MIXED_CURRENCIES_MESSAGE, voucherCurrencyMessage } from '@paddock/contract/money';
import { charges, localCharges } from '../../db/schema/payments';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { sentMail } from '../../test/sent-mail';

// Money per location (docs/decisions/0039): each location charges in its own currency.
let t: TestApp;
let brighton: Awaited<ReturnType<typeof createVenue>>;
let downtown: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const day = futureDate(5, 'Europe/London');

beforeAll(async () => {
  t = await createTestApp();
  brighton = await createVenue(t, {
    name: 'Brighton',
    timezone: 'Europe/London',
    currency: 'GBP',
    seats: 2,
    costCents: 3000,
    bookingFeeCents: 100,
    salesTaxRatePercent: '20',
  });
  downtown = await createVenue(t, { name: 'Downtown', seats: 1, costCents: 4500 });
  staff = await createUser(t, { isStaff: true, permissions: ['vouchers.add_voucher'] });
});
afterAll(() => t.close());

const post = (url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });
const quote = (user: CreatedUser, payload: object) =>
  post('/api/reservations/checkouts/quote', user, payload);

describe('checkout in the location’s currency', () => {
  it('quotes, charges and e-mails a Brighton booking in pounds', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const q = await quote(user, {
      reservations: [{ calendar: brighton.seats[0].id, slot: `${day}T18:00` }],
    });
    expect(q.statusCode).toBe(200);
    expect(q.json()).toMatchObject({ currency: 'GBP', total_cents: 3720 });
    const paid = await post(`/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().reservations[0]).toMatchObject({
      currency: 'GBP',
      timezone: 'Europe/London',
      location_name: 'Brighton',
    });

    const [charge] = await t.db
      .select()
      .from(charges)
      .where(eq(charges.idempotencyKey, `checkout-${q.json().checkout_id}`));
    expect(charge).toMatchObject({ amountCents: 3720, currency: 'GBP' });
    const [atProvider] = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.id, charge.chargeRef!));
    expect(atProvider.currency).toBe('GBP');

    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/charges',
      headers: bearer(user.token),
    });
    expect(listed.json().results[0]).toMatchObject({ amount_cents: 3720, currency: 'GBP' });

    const receipt = await t.app.inject({ method: 'GET', url: charge.receiptUrl! });
    expect(receipt.body).toContain('£37.20');

    const mail = await sentMail(t, user.email, /is confirmed/);
    expect(mail.text).toContain('£37.20');
    expect(mail.text).toContain('Europe/London');
    expect(mail.html).toContain('£37.20');
    expect(mail.html).not.toContain('$');
  });

  it('refuses seats priced in two currencies, naming the field', async () => {
    const user = await createUser(t);
    const res = await quote(user, {
      reservations: [
        { calendar: brighton.seats[0].id, slot: `${day}T19:00` },
        { calendar: downtown.seats[0].id, slot: `${day}T19:00` },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ reservations: [MIXED_CURRENCIES_MESSAGE] });
  });

  it('refuses a voucher in another currency, naming the field', async () => {
    const user = await createUser(t);
    const code = (await post('/api/vouchers', staff, { amount_cents: 1000 })).json().code;
    const res = await quote(user, {
      reservations: [{ calendar: brighton.seats[1].id, slot: `${day}T20:00` }],
      voucher: code,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ voucher: [voucherCurrencyMessage('USD', 'GBP')] });
  });

  it('lists seats and locations with their currency', async () => {
    const seats = await t.app.inject({
      method: 'GET',
      url: `/api/calendars?location=${brighton.location.id}`,
    });
    expect(seats.json().results.map((s: { currency: string }) => s.currency)).toEqual([
      'GBP',
      'GBP',
    ]);
    const loc = await t.app.inject({
      method: 'GET',
      url: `/api/locations/${brighton.location.id}`,
    });
    expect(loc.json()).toMatchObject({ currency: 'GBP', timezone: 'Europe/London' });
  });
});
