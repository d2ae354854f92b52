import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { unpaidLimitMessage } from './unpaid-limit';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 6 });
});
afterAll(() => t.close());

const day = futureDate(3);
const post = (url: string, user: CreatedUser, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload: payload as object });
const book = (user: CreatedUser, seat: number, hhmm: string) =>
  post('/api/reservations', user, { calendar: venue.seats[seat].id, slot: `${day}T${hhmm}` });
const checkout = async (user: CreatedUser, seat: number, hhmm: string) => {
  const q = await post('/api/reservations/checkouts/quote', user, {
    reservations: [{ calendar: venue.seats[seat].id, slot: `${day}T${hhmm}` }],
  });
  expect(q.statusCode).toBe(200);
  return post(`/api/reservations/checkouts/${q.json().checkout_id}/process`, user, {});
};

describe('unpaid bookings limit', () => {
  it('lets a customer without a card hold 4 unpaid bookings, then says why not', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 4; i++) expect((await book(u, i, '10:00')).statusCode).toBe(201);
    const fifth = await book(u, 4, '10:00');
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json()).toEqual({ non_field_errors: [unpaidLimitMessage(4)] });
    const viaCheckout = await checkout(u, 5, '10:00');
    expect(viaCheckout.statusCode).toBe(400);
    expect(viaCheckout.json()).toEqual({ non_field_errors: [unpaidLimitMessage(4)] });
  });

  it('does not stand in the way of a customer whose card pays', async () => {
    const u = await createUser(t);
    await saveTestCard(t, u);
    for (let i = 0; i < 6; i++) expect((await checkout(u, i, '12:00')).statusCode).toBe(200);
  });

  it('does not apply to staff booking for customers', async () => {
    const staff = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation'],
    });
    const u = await createUser(t);
    for (let i = 0; i < 6; i++) {
      const res = await post('/api/reservations', staff, {
        calendar: venue.seats[i].id,
        slot: `${day}T14:00`,
        user: u.id,
      });
      expect(res.statusCode).toBe(201);
    }
  });
});
