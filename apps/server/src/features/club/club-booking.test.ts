import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { clubMemberships, creditEntries } from '../../db/schema/club';
import { charges } from '../../db/schema/payments';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import {
  CREDITS_CHANGED,
  NO_SESSIONS_REMAINING,
  SUBSCRIPTION_NOT_IN_GOOD_STANDING,
} from '../../plugins/club-membership';

/** Booking with the club: checkout pays with credits first, the reservation page with a subscription. */

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let slotCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
  // Standard $25 sessions, a $1.50 booking fee and 8.875% sales tax.
  venue = await createVenue(t, {
    seats: 4,
    costCents: 2500,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
    salesTaxRatePercent: '8.875',
  });
});
afterAll(() => t.close());

/** A fresh half-hour for each booking so tests never collide. */
const nextSlot = () => {
  slotCounter += 1;
  // 08:00 to 23:30 only: never the hour a DST change skips or repeats.
  const day = futureDate(6 + Math.floor(slotCounter / 32));
  const minutes = 8 * 60 + (slotCounter % 32) * 30;
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return `${day}T${hhmm}`;
};

const post = (url: string, user: CreatedUser, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const me = async (user: CreatedUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(user.token) })).json();
const cardCharges = (user: CreatedUser, kind: string) =>
  t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, user.id), eq(charges.kind, kind)));

async function member(credits = 1000) {
  const user = await createUser(t);
  await saveTestCard(t, user);
  const res = await post('/api/users/me/charges/credits_enroll', user, { credits_amount: credits });
  expect(res.statusCode, res.body).toBe(200);
  return { user, subscriptionId: res.json().subscription.id as number };
}

describe('checkout with club credits', () => {
  it('pays the seats with credits first, waives the fees and charges nothing', async () => {
    const { user } = await member();
    const slot = nextSlot();
    const quote = await post('/api/reservations/checkouts/quote', user, {
      reservations: [0, 1].map((i) => ({ calendar: venue.seats[i].id, slot })),
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      subtotal_cents: 5000,
      credits_using: 500,
      credits_value_cents: 5000,
      credits_program_saves: 0,
      pre_tax_cents: 0,
      sales_tax_cents: 0,
      total_cents: 0,
    });
    expect(
      quote
        .json()
        .line_items.map(
          (l: { calendar_booking_fee_cents: number }) => l.calendar_booking_fee_cents,
        ),
    ).toEqual([0, 0]);

    const done = await post(
      `/api/reservations/checkouts/${quote.json().checkout_id}/process`,
      user,
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().reservations.every((r: { paid: boolean }) => r.paid)).toBe(true);
    expect((await me(user)).credits_balance).toBe(500);
    expect(await cardCharges(user, 'booking')).toEqual([]);
    const [entry] = await t.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, user.id), eq(creditEntries.reason, 'checkout')));
    expect(entry).toMatchObject({ delta: -500, checkoutId: quote.json().checkout_id });

    // Processing again spends nothing more.
    await post(`/api/reservations/checkouts/${quote.json().checkout_id}/process`, user);
    expect((await me(user)).credits_balance).toBe(500);
  });

  it('charges the card for what the credits do not cover', async () => {
    const { user } = await member(1000);
    const slot = nextSlot();
    const body = {
      reservations: [0, 1, 2].map((i) => ({ calendar: venue.seats[i].id, slot })),
    };
    // 7500 of seats; 1000 credits pay 7500 → nothing left to pay.
    expect((await post('/api/reservations/checkouts/quote', user, body)).json()).toMatchObject({
      credits_using: 750,
      credits_value_cents: 7500,
      total_cents: 0,
    });
    const big = {
      reservations: [0, 1, 2, 3].map((i) => ({ calendar: venue.seats[i].id, slot: nextSlot() })),
    };
    // Four seats (10000) against 1000 credits: all of them pay 10000.
    expect((await post('/api/reservations/checkouts/quote', user, big)).json()).toMatchObject({
      credits_using: 1000,
      total_cents: 0,
    });
    const five = {
      reservations: [
        ...[0, 1, 2, 3].map((i) => ({ calendar: venue.seats[i].id, slot: nextSlot() })),
        { calendar: venue.seats[0].id, slot: nextSlot() },
      ],
    };
    const quote = (await post('/api/reservations/checkouts/quote', user, five)).json();
    // 12500 of seats, 10000 paid with credits; fees waived (member); tax on 2500 = 221.875 → 222.
    expect(quote).toMatchObject({
      subtotal_cents: 12500,
      credits_using: 1000,
      credits_value_cents: 10000,
      pre_tax_cents: 2500,
      sales_tax_cents: 222,
      total_cents: 2722,
    });
    const done = await post(`/api/reservations/checkouts/${quote.checkout_id}/process`, user);
    expect(done.statusCode, done.body).toBe(200);
    expect((await cardCharges(user, 'booking')).map((c) => c.amountCents)).toEqual([2722]);
    expect((await me(user)).credits_balance).toBe(0);
  });

  it('two checkouts racing for the same credits: the second is refused and books nothing', async () => {
    const { user } = await member(1000);
    const quoteFor = async (n: number) =>
      (
        await post('/api/reservations/checkouts/quote', user, {
          reservations: Array.from({ length: n }, (_, i) => ({
            calendar: venue.seats[i].id,
            slot: nextSlot(),
          })),
        })
      ).json();
    const a = await quoteFor(4);
    const b = await quoteFor(4);
    expect(a.credits_using).toBe(1000);
    expect(b.credits_using).toBe(1000);
    const first = await post(`/api/reservations/checkouts/${a.checkout_id}/process`, user);
    expect(first.statusCode).toBe(200);
    const second = await post(`/api/reservations/checkouts/${b.checkout_id}/process`, user);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({ non_field_errors: [CREDITS_CHANGED] });
    const reservations = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/reservations/future',
      headers: bearer(user.token),
    });
    expect(reservations.json().count).toBe(4);
  });

  it('uses no credits and keeps the fees for a member not in good standing', async () => {
    const { user } = await member(1000);
    await t.db
      .update(clubMemberships)
      .set({ status: 'past_due' })
      .where(eq(clubMemberships.userId, user.id));
    const quote = (
      await post('/api/reservations/checkouts/quote', user, {
        reservations: [{ calendar: venue.seats[0].id, slot: nextSlot() }],
      })
    ).json();
    expect(quote).toMatchObject({ credits_using: 0, credits_value_cents: 0, subtotal_cents: 2650 });
  });

  it('shows non-members what the club would save, and uses no credits', async () => {
    const user = await createUser(t);
    const quote = (
      await post('/api/reservations/checkouts/quote', user, {
        reservations: [{ calendar: venue.seats[0].id, slot: nextSlot() }],
      })
    ).json();
    // 20% of 2500 + the 150 fee.
    expect(quote).toMatchObject({ credits_using: 0, credits_program_saves: 650 });
  });
});

describe('POST /reservations with a subscription', () => {
  it('redeems one standard session: paid, nothing owed, 250 credits spent', async () => {
    const { user, subscriptionId } = await member(1000);
    const res = await post('/api/reservations', user, {
      calendar: venue.seats[0].id,
      slot: nextSlot(),
      subscription: subscriptionId,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ paid: true, subscription: subscriptionId, amount_cents: 0 });
    expect((await me(user)).credits_balance).toBe(750);
    const subs = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/subscriptions',
      headers: bearer(user.token),
    });
    expect(subs.json().results[0]).toMatchObject({
      reservations_remaining: 3,
      reservations_remaining_this_month: 3,
      reservations_remaining_next_month: 7,
    });
    const balance = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/balance',
      headers: bearer(user.token),
    });
    expect(balance.json().amount_cents).toBe(0);
  });

  it('refuses a subscription without sessions remaining, and leaves the seat free', async () => {
    const { user, subscriptionId } = await member(1000);
    for (let i = 0; i < 4; i += 1) {
      const ok = await post('/api/reservations', user, {
        calendar: venue.seats[0].id,
        slot: nextSlot(),
        subscription: subscriptionId,
      });
      expect(ok.statusCode, ok.body).toBe(201);
    }
    const slot = nextSlot();
    const res = await post('/api/reservations', user, {
      calendar: venue.seats[0].id,
      slot,
      subscription: subscriptionId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ subscription: [NO_SESSIONS_REMAINING] });
    // Rolled back: the seat can still be booked.
    const other = await createUser(t);
    expect(
      (await post('/api/reservations', other, { calendar: venue.seats[0].id, slot })).statusCode,
    ).toBe(201);
  });

  it("refuses someone else's subscription and one not in good standing", async () => {
    const { subscriptionId } = await member(1000);
    const stranger = await createUser(t);
    const res = await post('/api/reservations', stranger, {
      calendar: venue.seats[1].id,
      slot: nextSlot(),
      subscription: subscriptionId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      subscription: [`Invalid pk "${subscriptionId}" - object does not exist.`],
    });

    const late = await member(1000);
    await t.db
      .update(clubMemberships)
      .set({ status: 'past_due' })
      .where(eq(clubMemberships.id, late.subscriptionId));
    const refused = await post('/api/reservations', late.user, {
      calendar: venue.seats[1].id,
      slot: nextSlot(),
      subscription: late.subscriptionId,
    });
    expect(refused.json()).toEqual({ subscription: [SUBSCRIPTION_NOT_IN_GOOD_STANDING] });
    expect((await me(late.user)).credits_balance).toBe(1000);
  });

  it('keeps the subscription when the reservation is edited with the same value', async () => {
    const { user, subscriptionId } = await member(1000);
    const created = (
      await post('/api/reservations', user, {
        calendar: venue.seats[2].id,
        slot: nextSlot(),
        subscription: subscriptionId,
      })
    ).json();
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/reservations/${created.id}`,
      headers: bearer(user.token),
      payload: { slot: nextSlot(), subscription: subscriptionId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ paid: true, subscription: subscriptionId });
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/reservations/${created.id}`,
      headers: bearer(user.token),
      payload: { subscription: subscriptionId + 1000 },
    });
    expect(changed.statusCode).toBe(400);
    expect(Object.keys(changed.json())).toEqual(['subscription']);
  });
});
