import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { minimumStayLeftMessage, minimumStayMessage } from '@paddock/contract/calendars';
import { calendarTypes } from '../../db/schema/venue';
import { reservations } from '../../db/schema/booking';
import { auditEvents } from '../../db/schema/audit';
import { moveCharges } from '../../db/schema/refunds';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import {
  createCalendarType,
  createSeat,
  createVenue,
  futureDate,
} from '../../test/booking-factories';

// Issue 40: one road to move a customer's booking (POST …/move, PATCH, the planner), and the
// seat type's minimum on each of them and on a blackout made a booking (decision 0112).

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let vr: { id: number }[];
let staff: CreatedUser;
let day = 3;
const TOO_SHORT = minimumStayMessage('VR Rig', 120);
const LEFT_SHORT = minimumStayLeftMessage('VR Rig', 120);
const VISIT = ['14:00', '14:30', '15:00', '15:30'];

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1, costCents: 2500 });
  const type = await createCalendarType(t, { name: 'VR Rig', isVr: true });
  await t.db.update(calendarTypes).set({ minMinutes: 120 }).where(eq(calendarTypes.id, type.id));
  vr = [
    await createSeat(t, { locationId: venue.location.id, typeId: type.id, costCents: 4500 }),
    await createSeat(t, { locationId: venue.location.id, typeId: type.id, costCents: 4500 }),
  ];
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PATCH', url: string, who: CreatedUser, payload: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), payload });

/** A customer's 2-hour VR visit on seat 0 of a fresh day, paid by card at the desk. */
async function visit() {
  const customer = await createUser(t);
  await saveTestCard(t, customer);
  const date = futureDate(day++);
  const res = await call('POST', '/api/planner/book', staff, {
    user: customer.id,
    slots: VISIT.map((time) => ({ calendar: vr[0].id, slot: `${date}T${time}` })),
    payment: 'card',
  });
  expect(res.statusCode, res.body).toBe(201);
  const ids = (res.json().entries as { id: number; slot: string }[])
    .sort((a, b) => a.slot.localeCompare(b.slot))
    .map((e) => e.id);
  return { customer, date, ids };
}

const where = async (ids: number[]) =>
  (await t.db.select().from(reservations).where(isNull(reservations.cancelledAt)))
    .filter((r) => ids.includes(r.id))
    .map((r) => `${r.calendarId}|${r.slot}`)
    .sort();

describe('one half-hour out of a 2-hour VR visit', () => {
  const doors = {
    'the customer’s move': (v: Awaited<ReturnType<typeof visit>>, to: object) =>
      call('POST', `/api/reservations/${v.ids[3]}/move`, v.customer, to),
    'the customer’s PATCH': (v: Awaited<ReturnType<typeof visit>>, to: object) =>
      call('PATCH', `/api/reservations/${v.ids[3]}`, v.customer, to),
    'a staff PATCH': (v: Awaited<ReturnType<typeof visit>>, to: object) =>
      call('PATCH', `/api/reservations/${v.ids[3]}`, staff, to),
    'the planner move': (v: Awaited<ReturnType<typeof visit>>, to: object) =>
      call('POST', '/api/planner/move', staff, { reservation: v.ids[3], ...to }),
  };
  for (const [door, send] of Object.entries(doors))
    it(`is refused through ${door}, whether it lands alone or leaves the rest short`, async () => {
      const v = await visit();
      const before = await where(v.ids);
      // To the other VR seat: 30 minutes there.
      const alone = await send(v, { calendar: vr[1].id, slot: `${v.date}T15:30` });
      expect(alone.statusCode).toBe(400);
      expect(alone.json()).toEqual({ slot: [TOO_SHORT] });
      // Later on its own seat, a gap behind it: 1.5 hours and a lone half-hour.
      const later = await send(v, { calendar: vr[0].id, slot: `${v.date}T17:00` });
      expect(later.statusCode).toBe(400);
      expect(later.json()).toEqual({ slot: [TOO_SHORT] });
      expect(await where(v.ids)).toEqual(before);
    });

  it('leaving the rest too short is refused in words even where it lands beside its own', async () => {
    const v = await visit();
    // The customer also holds 2 hours on the other seat right after: the half-hour joins them
    // (2.5 hours there) but leaves 1.5 hours behind.
    const more = await call('POST', '/api/planner/book', staff, {
      user: v.customer.id,
      slots: ['16:00', '16:30', '17:00', '17:30'].map((time) => ({
        calendar: vr[1].id,
        slot: `${v.date}T${time}`,
      })),
      payment: 'desk',
    });
    expect(more.statusCode, more.body).toBe(201);
    const res = await call('POST', `/api/reservations/${v.ids[3]}/move`, v.customer, {
      calendar: vr[1].id,
      slot: `${v.date}T15:30`,
    });
    expect(res.json()).toEqual({ slot: [LEFT_SHORT] });
  });

  it('moves when the whole run moves together (the customer’s move and the planner’s)', async () => {
    const v = await visit();
    const quote = await t.app.inject({
      method: 'GET',
      url: `/api/reservations/${v.ids[0]}/move_quote?calendar=${vr[1].id}&slot=${v.date}T18:00&run=true`,
      headers: bearer(v.customer.token),
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const res = await call('POST', `/api/reservations/${v.ids[0]}/move`, v.customer, {
      calendar: vr[1].id,
      slot: `${v.date}T18:00`,
      run: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reservation_ids).toEqual([...v.ids].sort((a, b) => a - b));
    expect(await where(v.ids)).toEqual(
      ['18:00', '18:30', '19:00', '19:30'].map((time) => `${vr[1].id}|${v.date}T${time}`),
    );
    // Half an hour later on the same seat: the run overlaps itself and still moves.
    const staffMove = await call('POST', '/api/planner/move', staff, {
      reservation: v.ids[2],
      calendar: vr[1].id,
      slot: `${v.date}T19:30`,
      run: true,
    });
    expect(staffMove.statusCode, staffMove.body).toBe(200);
    expect(await where(v.ids)).toEqual(
      ['18:30', '19:00', '19:30', '20:00'].map((time) => `${vr[1].id}|${v.date}T${time}`),
    );
  });
});

describe('a blackout made a customer’s booking', () => {
  it('is refused on a VR seat when it makes a run shorter than the minimum', async () => {
    const customer = await createUser(t);
    const date = futureDate(day++);
    const blackout = await call('POST', '/api/planner/blackout', staff, {
      slots: [{ calendar: vr[0].id, slot: `${date}T10:00` }],
      notes: 'held for a regular',
    });
    expect(blackout.statusCode, blackout.body).toBe(201);
    const id = blackout.json().entries[0].id as number;
    const res = await call('PATCH', `/api/reservations/${id}`, staff, {
      is_blackout: false,
      user: customer.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ user: [TOO_SHORT] });
    const [row] = await t.db.select().from(reservations).where(eq(reservations.id, id));
    expect(row).toMatchObject({ isBlackout: true, userId: null });
  });
});

describe('the customer’s PATCH takes the one move road', () => {
  it('charges the difference of a dearer seat as POST …/move does, with its audit row', async () => {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    const date = futureDate(day++);
    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: [{ calendar: venue.seats[0].id, slot: `${date}T12:00` }],
      payment: 'card',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().entries[0].id as number;
    const dearer = await createSeat(t, {
      locationId: venue.location.id,
      typeId: venue.type.id,
      costCents: 3500,
    });
    const res = await call('PATCH', `/api/reservations/${id}`, customer, {
      calendar: dearer.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, calendar: dearer.id, paid: true });
    const [part] = await t.db.select().from(moveCharges).where(eq(moveCharges.reservationId, id));
    expect(part.cardCents).toBe(1000);
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'reservation.move')));
    expect(trail).toHaveLength(1);
  });
});
