import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { desc, eq } from 'drizzle-orm';
import { changeEvents } from '../../db/schema/security';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { reservations } from '../../db/schema/booking';
import { BLACKOUT_ON_BOOKED_MESSAGE } from './reservations.service';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'user.change_user'],
  });
});
afterAll(() => t.close());

const call = (
  method: 'POST' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  who: CreatedUser,
  payload?: object,
) => t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

describe('a blackout on a booked slot', () => {
  it('is refused and changes nothing: the booking and what is owed stay', async () => {
    const customer = await createUser(t);
    const booked = await call('POST', '/api/reservations', customer, {
      calendar: venue.seats[0].id,
      slot: `${futureDate(2)}T15:00`,
    });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().id;
    const res = await call('PATCH', `/api/reservations/${id}`, staff, {
      is_blackout: true,
      notes: 'maintenance',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ is_blackout: [BLACKOUT_ON_BOOKED_MESSAGE] });
    const after = (await call('GET', `/api/reservations/${id}`, staff)).json();
    expect(after).toMatchObject({ user: customer.id, is_blackout: false, notes: '' });
    expect(after.amount_cents).toBe(booked.json().amount_cents);
    const balance = (await call('GET', '/api/users/me/balance', customer)).json();
    expect(balance.amount_cents).toBe(booked.json().amount_cents);
  });

  it('says on the change feed which seat changed', async () => {
    const res = await call('POST', '/api/reservations', staff, {
      calendar: venue.seats[1].id,
      slot: `${futureDate(4)}T15:00`,
      is_blackout: true,
    });
    expect(res.statusCode).toBe(201);
    const [last] = await t.db.select().from(changeEvents).orderBy(desc(changeEvents.seq)).limit(1);
    expect(last).toMatchObject({ topic: 'reservations', refId: venue.seats[1].id });
  });

  it('is still set on a free slot', async () => {
    const res = await call('POST', '/api/reservations', staff, {
      calendar: venue.seats[1].id,
      slot: `${futureDate(2)}T15:00`,
      is_blackout: true,
      notes: 'cleaning',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ is_blackout: true, user: null });
  });
});

describe('deleting a paid booking', () => {
  it('records who and when, and leaves the charge in the history', async () => {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    const q = await call('POST', '/api/reservations/checkouts/quote', customer, {
      reservations: [{ calendar: venue.seats[0].id, slot: `${futureDate(3)}T16:00` }],
    });
    const paid = await call(
      'POST',
      `/api/reservations/checkouts/${q.json().checkout_id}/process`,
      customer,
    );
    expect(paid.statusCode).toBe(200);
    const id = paid.json().reservations[0].id;
    expect((await call('DELETE', `/api/reservations/${id}`, staff)).statusCode).toBe(204);
    const [row] = await t.db.select().from(reservations).where(eq(reservations.id, id));
    expect(row.cancelledById).toBe(staff.id);
    expect(row.cancelledAt).toBeInstanceOf(Date);
    const charges = (await call('GET', '/api/users/me/charges', customer)).json();
    expect(charges.count).toBe(1);
  });
});

describe('the staff booking window', () => {
  it('reaches two months back for staff, never for customers', async () => {
    const lastWeek = DateTime.now().setZone(zone).minus({ days: 7 }).toISODate();
    const tooOld = DateTime.now().setZone(zone).minus({ months: 2, days: 2 }).toISODate();
    const customer = await createUser(t);
    const walkIn = await call('POST', '/api/reservations', staff, {
      calendar: venue.seats[0].id,
      slot: `${lastWeek}T12:00`,
      user: customer.id,
      paid: true,
    });
    expect(walkIn.statusCode).toBe(201);
    const blackout = await call('POST', '/api/reservations', staff, {
      calendar: venue.seats[1].id,
      slot: `${lastWeek}T12:00`,
      is_blackout: true,
    });
    expect(blackout.statusCode).toBe(201);
    const old = await call('POST', '/api/reservations', staff, {
      calendar: venue.seats[0].id,
      slot: `${tooOld}T12:00`,
      is_blackout: true,
    });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toHaveProperty('slot');
    const byCustomer = await call('POST', '/api/reservations', customer, {
      calendar: venue.seats[0].id,
      slot: `${lastWeek}T13:00`,
    });
    expect(byCustomer.statusCode).toBe(400);
    expect(byCustomer.json()).toEqual({ slot: ['This time has already started.'] });
  });
});
