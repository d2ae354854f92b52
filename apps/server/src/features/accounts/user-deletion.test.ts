import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { loginTokens, users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { clubMemberships } from '../../db/schema/club';
import { cards, charges, localPaymentMethods } from '../../db/schema/payments';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let manager: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2 });
  manager = await createUser(t, {
    isStaff: true,
    permissions: ['user.change_user', 'reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

describe('DELETE /users/{id} keeps the books', () => {
  it('removes personal data, card and sessions; charges and paid reservations survive', async () => {
    const customer = await createUser(t);
    await t.db
      .update(users)
      .set({ firstName: 'Ada', lastName: 'Racer', contactPhone: '5551234567', simGuid: 'S1' })
      .where(eq(users.id, customer.id));
    await saveTestCard(t, customer);
    // A paid booking (a charge) and a club membership (another charge).
    const quote = await call('POST', '/api/reservations/checkouts/quote', customer, {
      reservations: [{ calendar: venue.seats[0].id, slot: `${futureDate(3)}T16:00` }],
    });
    const paid = await call(
      'POST',
      `/api/reservations/checkouts/${quote.json().checkout_id}/process`,
      customer,
    );
    expect(paid.statusCode).toBe(200);
    const paidId: number = paid.json().reservations[0].id;
    const joined = await call('POST', '/api/users/me/charges/credits_enroll', customer, {
      credits_amount: 1000,
    });
    expect(joined.statusCode).toBe(200);
    // A past booking staff recorded as paid, and a future unpaid one.
    const past = await call('POST', '/api/reservations', manager, {
      calendar: venue.seats[1].id,
      slot: `${futureDate(-3)}T12:00`,
      user: customer.id,
      paid: true,
    });
    expect(past.statusCode).toBe(201);
    const future = await call('POST', '/api/reservations', manager, {
      calendar: venue.seats[1].id,
      slot: `${futureDate(5)}T12:00`,
      user: customer.id,
    });
    expect(future.statusCode).toBe(201);
    const chargesBefore = await t.db.select().from(charges).where(eq(charges.userId, customer.id));
    expect(chargesBefore.length).toBeGreaterThanOrEqual(2);
    const [card] = await t.db.select().from(cards).where(eq(cards.userId, customer.id));

    const res = await call('DELETE', `/api/users/${customer.id}`, manager);
    expect(res.statusCode).toBe(204);

    // Personal data is gone.
    const [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row).toMatchObject({
      username: `deleted-user-${customer.id}`,
      email: '',
      firstName: '',
      lastName: '',
      contactPhone: '',
      zipCode: '',
      racerName: '',
      socialInstagram: '',
      simGuid: null,
      isActive: false,
    });
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(await t.db.select().from(cards).where(eq(cards.userId, customer.id))).toHaveLength(0);
    const [method] = await t.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.id, card.paymentMethodRef));
    expect(method.customerId).toBeNull();
    expect(
      await t.db.select().from(loginTokens).where(eq(loginTokens.userId, customer.id)),
    ).toHaveLength(0);
    expect((await call('GET', '/api/users/me', customer)).statusCode).toBe(401);
    expect((await call('GET', `/api/users/${customer.id}`, manager)).statusCode).toBe(404);
    const search = await call('GET', `/api/users?search=deleted-user-${customer.id}`, manager);
    expect(search.json().count).toBe(0);

    // Money records stay, under the anonymous placeholder.
    const chargesAfter = await t.db.select().from(charges).where(eq(charges.userId, customer.id));
    // Every charge stays; the paid future booking was cancelled under the policy (decision 0124):
    // free three days ahead, so its refund is one more (negative) row.
    expect(chargesAfter.map((c) => c.id)).toEqual(
      expect.arrayContaining(chargesBefore.map((c) => c.id)),
    );
    expect(chargesAfter).toHaveLength(chargesBefore.length + 1);
    const kept = await t.db.select().from(reservations).where(eq(reservations.userId, customer.id));
    const byId = new Map(kept.map((r) => [r.id, r]));
    expect(byId.get(paidId)?.cancelledAt).toBeInstanceOf(Date);
    expect(byId.get(past.json().id)).toMatchObject({ paid: true, cancelledAt: null });
    // A future booking is cancelled (its seat is free again) but its row stays.
    expect(byId.get(future.json().id)?.cancelledAt).toBeInstanceOf(Date);
    expect(byId.get(future.json().id)?.cancelledById).toBe(manager.id);
    // No renewal will charge a deleted customer.
    const memberships = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, customer.id));
    expect(memberships.map((m) => m.status)).toEqual(['cancelled']);
  });
});
