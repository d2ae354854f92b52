import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  BLACKED_OUT_MESSAGE,
  DELETED_MESSAGE,
  expandPlannerDay,
  plannerDayWire,
} from '@paddock/contract/planner';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { reservations } from '../../db/schema/booking';
import { charges } from '../../db/schema/payments';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let other: CreatedUser;
const day = futureDate(3);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 3 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
  other = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, who: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
const seat = (i: number) => venue.seats[i].id;
const liveOn = async (calendarId: number) =>
  t.db
    .select()
    .from(reservations)
    .where(and(eq(reservations.calendarId, calendarId), isNull(reservations.cancelledAt)));

describe('the planner day', () => {
  it("answers a location's open slots, seats and taken slots in one call", async () => {
    const customer = await createUser(t, { firstName: 'Dana', lastName: 'Drift' });
    const booked = await call('POST', '/api/reservations', customer, {
      calendar: seat(0),
      slot: `${day}T18:00`,
    });
    expect(booked.statusCode).toBe(201);
    const res = await call('GET', `/api/planner?date=${day}`, staff);
    expect(res.statusCode).toBe(200);
    const body = expandPlannerDay(plannerDayWire.parse(res.json()));
    expect(body.location?.id).toBe(venue.location.id);
    expect(body.seats.map((s: { name: string }) => s.name)).toEqual(['Sim 1', 'Sim 2', 'Sim 3']);
    expect(body.slots.length).toBe(48);
    expect(body.slots.every((s: { slot: string }) => /T\d\d:(00|30)$/.test(s.slot))).toBe(true);
    expect(body.entries).toEqual([
      expect.objectContaining({
        calendar: seat(0),
        slot: `${day}T18:00`,
        user: customer.id,
        user_display_name: 'Dana Drift',
        paid: false,
        is_blackout: false,
        attendance: null,
      }),
    ]);
    expect(body.now_slot).toMatch(/^\d{4}-\d{2}-\d{2}T\d\d:(00|30)$/);
  });

  it('shows every location side by side when they share a time zone, and names it when not', async () => {
    const second = await createVenue(t, { seats: 2 });
    const all = await call('GET', `/api/planner?date=${day}&location=all`, staff);
    expect(all.statusCode).toBe(200);
    const body = plannerDayWire.parse(all.json());
    expect(body.location).toBeNull();
    const shown = new Set(body.seats.map((s) => s.location));
    expect(shown).toEqual(new Set(body.locations.map((l) => l.id)));
    expect(body.seats.filter((s) => s.location === second.location.id)).toHaveLength(2);
    const one = plannerDayWire.parse(
      (await call('GET', `/api/planner?date=${day}&location=${second.location.id}`, staff)).json(),
    );
    expect(one.seats.map((s) => s.location)).toEqual([second.location.id, second.location.id]);

    await t.db.execute(
      sql`update locations set timezone = 'Asia/Tokyo' where id = ${second.location.id}`,
    );
    const mixed = await call('GET', `/api/planner?date=${day}&location=all`, staff);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().location[0]).toBe(
      'The locations are in different time zones: choose one location.',
    );
    await t.db.execute(
      sql`update locations set timezone = ${venue.location.timezone} where id = ${second.location.id}`,
    );
  });

  it('names bad dates and locations, and keeps customers out', async () => {
    const bad = await call('GET', '/api/planner?date=2026-02-30', staff);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('date');
    const far = await call('GET', `/api/planner?date=${futureDate(200)}`, staff);
    expect(far.statusCode).toBe(400);
    expect(far.json().date[0]).toMatch(/^Choose a date from /);
    const nowhere = await call('GET', `/api/planner?date=${day}&location=99999`, staff);
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json()).toHaveProperty('location');
    const customer = await createUser(t);
    expect((await call('GET', `/api/planner?date=${day}`, customer)).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/planner?date=${day}` })).statusCode).toBe(401);
  });
});

describe('With Selected', () => {
  it('blacks out free times with a note, all or nothing', async () => {
    const res = await call('POST', '/api/planner/blackout', staff, {
      slots: [
        { calendar: seat(1), slot: `${day}T10:00` },
        { calendar: seat(1), slot: `${day}T10:30` },
      ],
      notes: 'Wheel base broken',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().detail).toBe(BLACKED_OUT_MESSAGE);
    expect(res.json().entries).toHaveLength(2);
    expect(res.json().entries[0]).toMatchObject({ is_blackout: true, notes: 'Wheel base broken' });

    // One of the two is taken: nothing is blacked out.
    const before = (await liveOn(seat(1))).length;
    const clash = await call('POST', '/api/planner/blackout', staff, {
      slots: [
        { calendar: seat(1), slot: `${day}T11:00` },
        { calendar: seat(1), slot: `${day}T10:00` },
      ],
      notes: '',
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toHaveProperty('non_field_errors');
    expect((await liveOn(seat(1))).length).toBe(before);
  });

  it('deletes reservations, all or none, keeping them on the books as cancelled', async () => {
    const customer = await createUser(t);
    const a = await call('POST', '/api/reservations', customer, {
      calendar: seat(2),
      slot: `${day}T12:00`,
    });
    const b = await call('POST', '/api/reservations', customer, {
      calendar: seat(2),
      slot: `${day}T12:30`,
    });
    const ids = [a.json().id, b.json().id];
    const partial = await call('POST', '/api/planner/delete', staff, {
      reservations: [...ids, 999999],
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toHaveProperty('reservations');
    expect((await liveOn(seat(2))).length).toBe(2);

    const res = await call('POST', '/api/planner/delete', staff, { reservations: ids });
    expect(res.statusCode).toBe(200);
    // Then what went back (issue 41): unpaid bookings, so nothing.
    expect(res.json().detail).toBe(`${DELETED_MESSAGE}. Nothing goes back to the customer.`);
    expect(await liveOn(seat(2))).toHaveLength(0);
    const kept = await t.db
      .select()
      .from(reservations)
      .where(eq(reservations.calendarId, seat(2)));
    expect(kept.every((r) => r.cancelledAt !== null && r.cancelledById === staff.id)).toBe(true);
  });

  it('books a walk-in to pay at the desk, or by card; a declined card books nothing', async () => {
    const walkIn = await createUser(t);
    const desk = await call('POST', '/api/planner/book', staff, {
      user: walkIn.id,
      slots: [{ calendar: seat(0), slot: `${day}T14:00` }],
      payment: 'desk',
    });
    expect(desk.statusCode).toBe(201);
    expect(desk.json().entries[0]).toMatchObject({ user: walkIn.id, paid: false });
    const balance = await call('GET', `/api/users/${walkIn.id}/balance`, staff);
    expect(balance.json().amount_cents).toBeGreaterThan(0);

    const payer = await createUser(t);
    await saveTestCard(t, payer);
    const card = await call('POST', '/api/planner/book', staff, {
      user: payer.id,
      slots: [
        { calendar: seat(0), slot: `${day}T15:00` },
        { calendar: seat(0), slot: `${day}T15:30` },
      ],
      payment: 'card',
    });
    expect(card.statusCode).toBe(201);
    expect(card.json().entries.every((e: { paid: boolean }) => e.paid)).toBe(true);
    const paid = await t.db.select().from(charges).where(eq(charges.userId, payer.id));
    expect(paid.some((c) => c.amountCents > 0 && !c.errors)).toBe(true);

    const decliner = await createUser(t);
    await saveTestCard(t, decliner, '4000000000000341');
    const declined = await call('POST', '/api/planner/book', staff, {
      user: decliner.id,
      slots: [{ calendar: seat(0), slot: `${day}T16:00` }],
      payment: 'card',
    });
    expect(declined.statusCode).toBe(402);
    const left = await t.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.userId, decliner.id), isNull(reservations.cancelledAt)));
    expect(left).toHaveLength(0);
  });

  it('moves a booking to a free seat; two staff moving into one slot: one wins', async () => {
    const customer = await createUser(t);
    const one = await call('POST', '/api/reservations', customer, {
      calendar: seat(2),
      slot: `${day}T19:00`,
    });
    const two = await call('POST', '/api/reservations', customer, {
      calendar: seat(2),
      slot: `${day}T19:30`,
    });
    const moved = await call('POST', '/api/planner/move', staff, {
      reservation: one.json().id,
      calendar: seat(1),
      slot: `${day}T19:00`,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().entries[0]).toMatchObject({ calendar: seat(1), slot: `${day}T19:00` });

    const target = { calendar: seat(1), slot: `${day}T21:00` };
    const [a, b] = await Promise.all([
      call('POST', '/api/planner/move', staff, { reservation: one.json().id, ...target }),
      call('POST', '/api/planner/move', other, { reservation: two.json().id, ...target }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const there = (await liveOn(seat(1))).filter((r) => r.slot === target.slot);
    expect(there).toHaveLength(1);
  });

  it('marks drivers checked in or no-show, never a blackout', async () => {
    const customer = await createUser(t);
    const r = await call('POST', '/api/reservations', customer, {
      calendar: seat(2),
      slot: `${day}T20:00`,
    });
    const res = await call('POST', '/api/planner/attendance', staff, {
      reservations: [r.json().id],
      attendance: 'checked_in',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().entries[0].attendance).toBe('checked_in');
    const blackout = (
      await call('POST', '/api/planner/blackout', staff, {
        slots: [{ calendar: seat(2), slot: `${day}T20:30` }],
      })
    ).json().entries[0].id;
    const refused = await call('POST', '/api/planner/attendance', staff, {
      reservations: [r.json().id, blackout],
      attendance: 'no_show',
    });
    expect(refused.statusCode).toBe(400);
    const [row] = await t.db.select().from(reservations).where(eq(reservations.id, r.json().id));
    expect(row.attendance).toBe('checked_in');
    const bad = await call('POST', '/api/planner/attendance', staff, {
      reservations: [r.json().id],
      attendance: 'late',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('attendance');
  });
});
