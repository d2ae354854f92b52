import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { minimumStayMessage } from '@paddock/contract/calendars';
import { calendarTypes } from '../../db/schema/venue';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import {
  createCalendarType,
  createSeat,
  createVenue,
  futureDate,
} from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let vr: { id: number }[];
let staff: CreatedUser;
const TOO_SHORT = minimumStayMessage('VR Rig', 120);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1 });
  const type = await createCalendarType(t, { name: 'VR Rig', isVr: true });
  await t.db.update(calendarTypes).set({ minMinutes: 120 }).where(eq(calendarTypes.id, type.id));
  vr = [
    await createSeat(t, { locationId: venue.location.id, typeId: type.id, costCents: 4500 }),
    await createSeat(t, { locationId: venue.location.id, typeId: type.id, costCents: 4500 }),
  ];
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PATCH', url: string, who: CreatedUser, payload: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), payload });

const slots = (calendar: number, day: string, times: string[]) =>
  times.map((time) => ({ calendar, slot: `${day}T${time}` }));

describe("a seat type's minimum (VR: 2 hours)", () => {
  it('refuses a 30-minute VR booking, in words, naming the slot', async () => {
    const customer = await createUser(t);
    const res = await call('POST', '/api/reservations', customer, {
      calendar: vr[0].id,
      slot: `${futureDate(3)}T15:00`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ slot: [TOO_SHORT] });
    expect(TOO_SHORT).toBe('VR Rig seats are booked for at least 2 hours in a row.');
  });

  it('refuses a checkout quote of 1.5 hours and prices 2 hours', async () => {
    const customer = await createUser(t);
    const day = futureDate(3);
    const short = await call('POST', '/api/reservations/checkouts/quote', customer, {
      reservations: slots(vr[0].id, day, ['16:00', '16:30', '17:00']),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ 'reservations.0.slot': [TOO_SHORT] });
    // Two runs on one seat: the second, alone, is too short.
    const split = await call('POST', '/api/reservations/checkouts/quote', customer, {
      reservations: slots(vr[0].id, day, ['10:00', '10:30', '11:00', '11:30', '13:00']),
    });
    expect(split.json()).toEqual({ 'reservations.4.slot': [TOO_SHORT] });
    const enough = await call('POST', '/api/reservations/checkouts/quote', customer, {
      reservations: slots(vr[0].id, day, ['16:00', '16:30', '17:00', '17:30']),
    });
    expect(enough.statusCode).toBe(200);
  });

  it("counts the customer's own bookings next to the slot, and a standard seat has no minimum", async () => {
    const customer = await createUser(t);
    const day = futureDate(4);
    for (const time of ['12:00', '12:30', '13:00'])
      expect(
        (
          await call('POST', '/api/reservations', staff, {
            calendar: vr[1].id,
            slot: `${day}T${time}`,
            user: customer.id,
            paid: true,
          })
        ).json(),
      ).toEqual({ slot: [TOO_SHORT] });
    const first = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: slots(vr[1].id, day, ['12:00', '12:30', '13:00', '13:30']),
      payment: 'desk',
    });
    expect(first.statusCode).toBe(201);
    // Extending the visit by a half-hour joins the run already booked.
    const more = await call('POST', '/api/reservations', staff, {
      calendar: vr[1].id,
      slot: `${day}T14:00`,
      user: customer.id,
      paid: true,
    });
    expect(more.json()).toMatchObject({ slot: `${day}T14:00` });
    // Someone else's half-hour next to it is still too short.
    const other = await createUser(t);
    const theirs = await call('POST', '/api/reservations', other, {
      calendar: vr[1].id,
      slot: `${day}T14:30`,
    });
    expect(theirs.json()).toEqual({ slot: [TOO_SHORT] });
    const standard = await call('POST', '/api/reservations', other, {
      calendar: venue.seats[0].id,
      slot: `${day}T15:00`,
    });
    expect(standard.statusCode).toBe(201);
  });

  it('refuses the staff booking and move of a half-hour into VR; blackouts and whole VR runs pass', async () => {
    const customer = await createUser(t);
    const day = futureDate(5);
    const desk = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: slots(vr[0].id, day, ['10:00']),
      payment: 'desk',
    });
    expect(desk.statusCode).toBe(400);
    expect(desk.json()).toEqual({ 'slots.0.slot': [TOO_SHORT] });

    const standard = await call('POST', '/api/reservations', customer, {
      calendar: venue.seats[0].id,
      slot: `${day}T11:00`,
    });
    expect(standard.statusCode).toBe(201);
    const id = standard.json().id;
    const staffMove = await call('POST', '/api/planner/move', staff, {
      reservation: id,
      calendar: vr[0].id,
      slot: `${day}T11:00`,
    });
    expect(staffMove.json()).toEqual({ slot: [TOO_SHORT] });
    const ownMove = await call('POST', `/api/reservations/${id}/move`, customer, {
      calendar: vr[0].id,
      slot: `${day}T11:00`,
    });
    expect(ownMove.json()).toEqual({ slot: [TOO_SHORT] });
    const patchMove = await call('PATCH', `/api/reservations/${id}`, staff, {
      calendar: vr[0].id,
    });
    expect(patchMove.json()).toEqual({ slot: [TOO_SHORT] });

    const visit = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: slots(vr[0].id, day, ['14:00', '14:30', '15:00', '15:30']),
      payment: 'desk',
    });
    expect(visit.statusCode).toBe(201);
    // One half-hour out of the visit would leave 30 minutes here and 1.5 hours there
    // (decision 0112); the whole visit moving together is a 2-hour run where it lands.
    const half = await call('POST', '/api/planner/move', staff, {
      reservation: visit.json().entries[0].id,
      calendar: vr[1].id,
      slot: `${day}T14:00`,
    });
    expect(half.json()).toEqual({ slot: [TOO_SHORT] });
    const vrMove = await call('POST', '/api/planner/move', staff, {
      reservation: visit.json().entries[0].id,
      calendar: vr[1].id,
      slot: `${day}T14:00`,
      run: true,
    });
    expect(vrMove.statusCode, vrMove.body).toBe(200);
    expect(vrMove.json().entries).toHaveLength(4);

    const blackout = await call('POST', '/api/planner/blackout', staff, {
      slots: slots(vr[1].id, day, ['20:00']),
      notes: 'headset cleaning',
    });
    expect(blackout.statusCode).toBe(201);
  });

  it('is a seat type field staff set in whole half-hours', async () => {
    const admin = await createUser(t, {
      isStaff: true,
      permissions: ['calendars.change_calendar'],
    });
    const bad = await call('POST', '/api/caltypes', admin, { name: 'Odd', min_minutes: 45 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('min_minutes');
    const good = await call('POST', '/api/caltypes', admin, { name: 'Endurance', min_minutes: 90 });
    expect(good.statusCode).toBe(201);
    expect(good.json()).toMatchObject({ min_minutes: 90 });
  });
});
