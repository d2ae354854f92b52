import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { checkouts, receiptsOwed, reservations } from '../../db/schema/booking';
import { cards, charges, localCharges, localRefunds } from '../../db/schema/payments';
import { chargeSavedCard } from '../../plugins/payments/charge-card';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createSeat, createVenue, futureDate, halfHourSlots } from '../../test/booking-factories';
import { checkoutContext } from '../../test/checkout-context';
import { claimOnly } from '../../test/claimed-checkout';
import { sentMail, sentMails } from '../../test/sent-mail';
import { repairCheckouts, type RepairContext } from './money-repair';

// Checkouts a crash left claimed (decision 0072): the repair ends each exactly once, the
// outstanding balance never counts their bookings, and a cancel refunds what they charged.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let ctx: RepairContext;
const zone = 'America/Los_Angeles';
const day = futureDate(6, zone);
/** A free half-hour on the first seat for each checkout of this file. */
const nextSlot = halfHourSlots(day, 10);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1, costCents: 3000 });
  ctx = checkoutContext(t);
});
afterAll(() => t.close());

const send = (user: CreatedUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

/** A quoted one-seat checkout whose processing died right after its claim. */
async function claimed(user: CreatedUser) {
  const q = await send(user, 'POST', '/api/reservations/checkouts/quote', {
    reservations: [{ calendar: venue.seats[0].id, slot: nextSlot() }],
  });
  expect(q.statusCode).toBe(200);
  return claimOnly(t, user, q.json().checkout_id);
}

/** ...and died again right after its charge was recorded. */
async function chargedNotFinished(user: CreatedUser) {
  const checkout = await claimed(user);
  const charged = await chargeSavedCard(t.db, t.deps.payments, {
    userId: user.id,
    amountCents: checkout.amounts.totalCents,
    currency: 'USD',
    notes: 'died right after this',
    idempotencyKey: `checkout-${checkout.id}`,
    kind: 'booking',
  });
  expect(charged.ok).toBe(true);
  return checkout;
}

const state = async (id: number) => ({
  checkout: (await t.db.select().from(checkouts).where(eq(checkouts.id, id)))[0],
  bookings: await t.db.select().from(reservations).where(eq(reservations.checkoutId, id)),
  recorded: await t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `checkout-${id}`)),
  atProvider: await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:checkout-${id}`)),
  owed: await t.db.select().from(receiptsOwed).where(eq(receiptsOwed.checkoutId, id)),
});

async function newCustomer() {
  const user = await createUser(t);
  await saveTestCard(t, user);
  return user;
}

describe('the money repair', () => {
  it('finishes a checkout charged but not finished, with its charge, once', async () => {
    const checkout = await chargedNotFinished(await newCustomer());
    const report = await repairCheckouts(ctx, { afterMs: 0 });
    expect(report).toMatchObject({ locked: true, finished: 1 });
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('paid');
    expect(s.checkout.result?.statusCode).toBe(200);
    expect(s.recorded).toHaveLength(1);
    expect(s.atProvider).toHaveLength(1);
    expect(s.bookings.map((b) => [b.paid, b.chargeId])).toEqual([[true, s.recorded[0].id]]);
    expect(s.owed).toHaveLength(1);
    expect((await repairCheckouts(ctx, { afterMs: 0 })).finished).toBe(0);
  });

  it('records a charge only the provider made (its answer lost) and charges nothing more', async () => {
    const user = await newCustomer();
    const checkout = await claimed(user);
    const [card] = await t.db.select().from(cards).where(eq(cards.userId, user.id));
    const atProvider = await t.deps.payments.charge({
      customerRef: card.customerRef,
      paymentMethodRef: card.paymentMethodRef,
      amountCents: checkout.amounts.totalCents,
      currency: 'USD',
      description: 'answer lost',
      idempotencyKey: `${card.customerRef}:checkout-${checkout.id}`,
    });
    expect(atProvider.ok).toBe(true);
    await repairCheckouts(ctx, { afterMs: 0 });
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('paid');
    expect(s.atProvider).toHaveLength(1);
    expect(s.recorded.map((c) => c.chargeRef)).toEqual([s.atProvider[0].id]);
    expect(s.bookings[0].paid).toBe(true);
  });

  it('carries out a claim left uncharged once, whichever instances repair at the same time', async () => {
    const checkout = await claimed(await newCustomer());
    const sibling = await t.sibling();
    try {
      const reports = await Promise.all([
        repairCheckouts(ctx, { afterMs: 0 }),
        repairCheckouts(ctx, { afterMs: 0 }),
        repairCheckouts(ctx, { afterMs: 0 }),
      ]);
      expect(reports.reduce((n, r) => n + r.finished, 0)).toBe(1);
    } finally {
      await sibling.close();
    }
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('paid');
    expect(s.recorded).toHaveLength(1);
    expect(s.atProvider).toHaveLength(1);
    expect(s.bookings.map((b) => b.paid)).toEqual([true]);
  });

  it("a decline it finds (not the customer's return) mails the customer once, as the request would", async () => {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const checkout = await claimed(user);
    // The customer never came back: the repair carries out their "pay" and meets the decline.
    expect((await repairCheckouts(ctx, { afterMs: 0 })).finished).toBe(1);
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('failed');
    expect(s.bookings.map((b) => [b.paid, b.cancelledAt])).toEqual([[false, null]]);
    const mail = await sentMail(t, user.email, /^Payment declined: /);
    const text = (mail.text ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('Your card was declined, so nothing was charged.');
    expect(text).toContain('Your seats are kept for you, unpaid: $30.00 is owed.');
    expect(text).toMatch(/\(kept, unpaid\)/);
    // Asked again (the customer's return, the next pass): the stored answer, no second mail.
    const retry = await send(user, 'POST', `/api/reservations/checkouts/${checkout.id}/process`);
    expect(retry.json()).toEqual({ detail: 'Your card was declined.', code: 'payment_failed' });
    await repairCheckouts(ctx, { afterMs: 0 });
    expect(await sentMails(t, user.email)).toHaveLength(1);
  });

  it('leaves alone a claim younger than its threshold (the request may still be finishing it)', async () => {
    const checkout = await claimed(await newCustomer());
    await repairCheckouts(ctx, { afterMs: 60_000 });
    expect((await state(checkout.id)).checkout.status).toBe('charging');
    await repairCheckouts(ctx, { afterMs: 0 });
    expect((await state(checkout.id)).checkout.status).toBe('paid');
  });
});

describe('a booking whose checkout charge exists', () => {
  it('is not in the outstanding balance, and capturing it charges nothing', async () => {
    const user = await newCustomer();
    const checkout = await chargedNotFinished(user);
    const balance = await send(user, 'GET', '/api/users/me/balance');
    expect(balance.json().amount_cents).toBe(0);
    await send(user, 'POST', '/api/users/me/charges/capture_outstanding');
    const captures = await t.db.select().from(charges).where(eq(charges.userId, user.id));
    expect(captures.map((c) => c.kind)).toEqual(['booking']);
    expect((await state(checkout.id)).checkout.status).toBe('charging');
  });

  it('is refunded when cancelled before the repair came (and the repair then charges no more)', async () => {
    const user = await newCustomer();
    const checkout = await chargedNotFinished(user);
    const [booking] = (await state(checkout.id)).bookings;
    const res = await send(user, 'POST', `/api/reservations/${booking.id}/cancel`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).not.toBeNull();
    expect(res.json().refund.card_status).toBe('succeeded');
    expect(res.json().refund.refund.card_cents).toBe(checkout.amounts.totalCents);
    await repairCheckouts(ctx, { afterMs: 0 });
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('paid');
    expect(s.atProvider).toHaveLength(1);
    expect(s.bookings[0].cancelledAt).not.toBeNull();
  });

  it('paid twice in old data (its checkout and a balance capture): a cancel refunds both', async () => {
    const user = await newCustomer();
    const checkout = await chargedNotFinished(user);
    const [booking] = (await state(checkout.id)).bookings;
    // What capture_outstanding did before the fix: charged the booking again and marked it paid.
    const capture = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: booking.amountCents,
      currency: 'USD',
      notes: 'Outstanding balance (1 reservation)',
      idempotencyKey: `outstanding-${user.id}-old`,
      kind: 'capture',
    });
    expect(capture.ok).toBe(true);
    await t.db
      .update(reservations)
      .set({ paid: true, chargeId: capture.charge.id })
      .where(eq(reservations.id, booking.id));
    await repairCheckouts(ctx, { afterMs: 0 });
    const res = await send(user, 'POST', `/api/reservations/${booking.id}/cancel`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().refund.card_status).toBe('succeeded');
    expect(res.json().refund.refund.card_cents).toBe(
      checkout.amounts.totalCents + booking.amountCents,
    );
    const refunded = await t.db.select().from(localRefunds);
    const byCharge = (ref: string | null) =>
      refunded.filter((r) => r.chargeId === ref).reduce((n, r) => n + r.amountCents, 0);
    const [own] = (await state(checkout.id)).recorded;
    expect(byCharge(own.chargeRef)).toBe(checkout.amounts.totalCents);
    expect(byCharge(capture.charge.chargeRef)).toBe(booking.amountCents);
  });

  it('moved to a cheaper seat before the repair came: the checkout ends first, the difference comes back', async () => {
    const user = await newCustomer();
    const checkout = await chargedNotFinished(user);
    const [booking] = (await state(checkout.id)).bookings;
    const cheap = await createSeat(t, {
      locationId: venue.location.id,
      typeId: venue.type.id,
      name: 'Budget Rig',
      costCents: 1000,
    });
    const res = await send(user, 'POST', `/api/reservations/${booking.id}/move`, {
      calendar: cheap.id,
      slot: booking.slot,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund?.refund.card_cents).toBeGreaterThan(0);
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('paid');
    expect(s.atProvider).toHaveLength(1);
    const moved = await t.db.select().from(reservations).where(eq(reservations.id, booking.id));
    expect([moved[0].calendarId, moved[0].paid, moved[0].chargeId]).toEqual([
      cheap.id,
      true,
      s.recorded[0].id,
    ]);
  });

  it('deleted by staff before the repair came: the checkout ends first, the booking shows what paid it', async () => {
    const user = await newCustomer();
    const checkout = await chargedNotFinished(user);
    const [booking] = (await state(checkout.id)).bookings;
    const desk = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation'],
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/reservations/${booking.id}`,
      headers: bearer(desk.token),
    });
    expect(res.statusCode, res.body).toBe(204);
    const s = await state(checkout.id);
    expect(s.checkout.status).toBe('paid');
    expect(s.bookings[0].cancelledAt).not.toBeNull();
    expect([s.bookings[0].paid, s.bookings[0].chargeId]).toEqual([true, s.recorded[0].id]);
  });
});
