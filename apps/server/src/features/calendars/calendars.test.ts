import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { reservations } from '../../db/schema/booking';
import { findSlot } from '../../lib/slots';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import {
  ALL_DAY,
  createCalendarType,
  createSeat,
  createVenue,
  futureDate,
} from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let me: CreatedUser;
let other: CreatedUser;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(2, zone);

async function reserve(
  calendarId: number,
  slot: string,
  opts: { userId?: number | null; paid?: boolean; isBlackout?: boolean } = {},
) {
  const s = findSlot({ timezone: zone, openingHours: ALL_DAY, specialHours: {} }, slot)!;
  await t.db.insert(reservations).values({
    calendarId,
    slot,
    time: new Date(s.startMs),
    userId: opts.userId ?? null,
    paid: opts.paid ?? false,
    isBlackout: opts.isBlackout ?? false,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 3, costCents: 4500 });
  me = await createUser(t);
  other = await createUser(t);
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
  await reserve(venue.seats[0].id, `${day}T10:00`, { userId: me.id, paid: true });
  await reserve(venue.seats[0].id, `${day}T10:30`, { userId: me.id, paid: false });
  await reserve(venue.seats[0].id, `${day}T11:00`, { userId: other.id, paid: true });
  await reserve(venue.seats[0].id, `${day}T11:30`, { isBlackout: true });
  await reserve(venue.seats[1].id, `${day}T11:00`, { userId: other.id });
});
afterAll(() => t.close());

const get = (url: string, user?: CreatedUser) =>
  t.app.inject({ method: 'GET', url, headers: user ? bearer(user.token) : {} });

describe('calendar types and calendars', () => {
  it('lists types', async () => {
    const res = await get('/api/caltypes');
    expect(res.statusCode).toBe(200);
    expect(res.json().results[0]).toEqual({
      id: venue.type.id,
      name: 'Pro Cockpit',
      image: '',
      description: '',
      is_vr: false,
      min_minutes: 30,
    });
  });

  it('lists seats with their type and location', async () => {
    const res = await get(`/api/calendars?location=${venue.location.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.results[0]).toEqual({
      id: venue.seats[0].id,
      name: 'Sim 1',
      cost_cents: 4500,
      cost_unit: '30 minutes',
      type: venue.type.id,
      type_name: 'Pro Cockpit',
      type_image: '',
      type_description: '',
      type_min_minutes: 30,
      image: '',
      event: expect.any(Number),
      location: venue.location.id,
      currency: 'USD',
    });
    const one = await get(`/api/calendars/${venue.seats[1].id}`);
    expect(one.json().name).toBe('Sim 2');
    expect((await get('/api/calendars/999999')).statusCode).toBe(404);
  });

  it('filters by search, type__in and leaves out inactive seats', async () => {
    const vr = await createCalendarType(t, { name: 'VR Rig', isVr: true });
    await createSeat(t, { locationId: venue.location.id, typeId: vr.id, name: 'Rift 1' });
    await createSeat(t, {
      locationId: venue.location.id,
      typeId: vr.id,
      name: 'Rift 2',
      active: false,
    });
    const vrOnly = (await get(`/api/calendars?type__in=${vr.id}`)).json();
    expect(vrOnly.results.map((c: { name: string }) => c.name)).toEqual(['Rift 1']);
    const both = (await get(`/api/calendars?type__in=${vr.id},${venue.type.id}`)).json();
    expect(both.count).toBe(4);
    const search = (await get('/api/calendars?search=rift')).json();
    expect(search.count).toBe(1);
    const byType = (await get('/api/calendars?search=vr%20rig')).json();
    expect(byType.count).toBe(1);
    const wild = (await get('/api/calendars?search=%25')).json();
    expect(wild.count).toBe(0);
  });

  it('filters by has_slot_avail and block_count', async () => {
    const closed = await createVenue(t, {
      seats: 1,
      openingHours: {},
    });
    const res = await get(`/api/calendars?has_slot_avail=${day}&location=${closed.location.id}`);
    expect(res.json().count).toBe(0);
    const open = await get(`/api/calendars?has_slot_avail=${day}&location=${venue.location.id}`);
    expect(open.json().count).toBe(4);
    const yesterday = DateTime.now().setZone(zone).minus({ days: 1 }).toISODate();
    const past = await get(
      `/api/calendars?has_slot_avail=${yesterday}&location=${venue.location.id}`,
    );
    expect(past.json().count).toBe(0);
    // A 10:00–14:00 day: a run of 8 needs a seat free all day, a run of 4 half the day.
    const short = await createVenue(t, {
      seats: 2,
      openingHours: Object.fromEntries(
        ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open: '10:00', close: '14:00' }]]),
      ),
    });
    await reserve(short.seats[0].id, `${day}T12:00`, { userId: other.id });
    const names = async (n: number) =>
      (
        await get(
          `/api/calendars?has_slot_avail=${day}&block_count=${n}&location=${short.location.id}`,
        )
      )
        .json()
        .results.map((c: { id: number }) => c.id);
    expect(await names(8)).toEqual([short.seats[1].id]);
    expect(await names(4)).toEqual([short.seats[0].id, short.seats[1].id]);
    expect(await names(9)).toEqual([]);
  });

  it('names the bad filter', async () => {
    for (const [query, field] of [
      ['has_slot_avail=tomorrow', 'has_slot_avail'],
      ['has_slot_avail=2026-02-30', 'has_slot_avail'],
      ['block_count=0', 'block_count'],
      ['block_count=x', 'block_count'],
      ['location=abc', 'location'],
      ['type__in=1,,2', 'type__in'],
      ['type__in=a', 'type__in'],
      ['page=0', 'page'],
      ['page_size=101', 'page_size'],
    ]) {
      const res = await get(`/api/calendars?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toContain(field);
    }
    expect((await get('/api/calendars?page=9')).statusCode).toBe(404);
  });
});

describe('GET /calendars/{id}/avail', () => {
  it('gives every slot of the date with the caller’s view of it', async () => {
    const res = await get(`/api/calendars/${venue.seats[0].id}/avail?date=${day}`, me);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const keys = Object.keys(body);
    expect(keys).toHaveLength(48);
    expect(keys[0]).toBe(`${day}T00:00`);
    expect(body[`${day}T09:30`]).toEqual({
      slot: `${day}T09:30`,
      time: expect.stringMatching(new RegExp(`^${day}T09:30:00-0[78]:00$`)),
      block: 30,
      state: 'free',
      available: true,
      reserved_by_me: false,
      paid: null,
      is_blackout: false,
      past: false,
    });
    expect(body[`${day}T10:00`]).toMatchObject({
      state: 'mine_paid',
      reserved_by_me: true,
      paid: true,
      available: false,
    });
    expect(body[`${day}T10:30`]).toMatchObject({
      state: 'mine_unpaid',
      reserved_by_me: true,
      paid: false,
    });
    expect(body[`${day}T11:00`]).toMatchObject({
      state: 'taken',
      reserved_by_me: false,
      paid: null,
    });
    expect(body[`${day}T11:30`]).toMatchObject({ state: 'blackout', is_blackout: true });
  });

  it('shows another user nothing of mine and strangers the plain view', async () => {
    const body = (await get(`/api/calendars/${venue.seats[0].id}/avail?date=${day}`, other)).json();
    expect(body[`${day}T10:00`].state).toBe('taken');
    expect(body[`${day}T11:00`].state).toBe('mine_paid');
    const anon = (await get(`/api/calendars/${venue.seats[0].id}/avail?date=${day}`)).json();
    expect(anon[`${day}T10:00`].state).toBe('taken');
  });

  it('marks started slots past', async () => {
    const today = DateTime.now().setZone(zone).toISODate()!;
    const body = (await get(`/api/calendars/${venue.seats[2].id}/avail?date=${today}`, me)).json();
    expect(body[`${today}T00:00`]).toMatchObject({ state: 'past', available: false, past: true });
  });

  it('keeps customers to two months either side; staff see further', async () => {
    const far = DateTime.now().setZone(zone).plus({ months: 2, days: 2 }).toISODate();
    const back = DateTime.now().setZone(zone).minus({ months: 2, days: 2 }).toISODate();
    const res = await get(`/api/calendars/${venue.seats[0].id}/avail?date=${far}`, me);
    expect(res.statusCode).toBe(400);
    expect(res.json().date[0]).toMatch(/^Choose a date from /);
    expect(
      (await get(`/api/calendars/${venue.seats[0].id}/avail?date=${back}`, staff)).statusCode,
    ).toBe(400);
    const lastMonth = DateTime.now().setZone(zone).minus({ months: 1 }).toISODate();
    const staffView = await get(
      `/api/calendars/${venue.seats[0].id}/avail?date=${lastMonth}`,
      staff,
    );
    expect(staffView.statusCode).toBe(200);
    expect(
      Object.values(staffView.json()).every((s) => (s as { state: string }).state === 'past'),
    ).toBe(true);
  });

  it('answers {} on a closed date, 404 for an unknown seat and 400 for a bad date', async () => {
    const closed = await createVenue(t, { seats: 1, specialHours: { [day]: [] } });
    expect((await get(`/api/calendars/${closed.seats[0].id}/avail?date=${day}`)).json()).toEqual(
      {},
    );
    expect((await get(`/api/calendars/999999/avail?date=${day}`)).statusCode).toBe(404);
    for (const q of ['', '?date=', '?date=21-11-2026', '?date=2026-13-01']) {
      const res = await get(`/api/calendars/${venue.seats[0].id}/avail${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(Object.keys(res.json()), q).toContain('date');
    }
  });
});

describe('GET /calendars/parallel and /avail/quote', () => {
  it('finds seats side by side for consecutive sessions', async () => {
    const res = await get(
      `/api/calendars/parallel?date=${day}&location=${venue.location.id}&racers=3&sessions=2&block=30&type__in=${venue.type.id}`,
      me,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((c: { name: string }) => c.name)).toEqual(['Sim 1', 'Sim 2', 'Sim 3']);
    const starts = body[0].slots.map((s: { slot: string }) => s.slot.slice(11));
    // Seat 1 is busy 10:00–12:00 and seat 2 at 11:00: a 1-hour run for 3 can't touch 09:30–11:30.
    expect(starts).toContain('09:00');
    expect(starts).not.toContain('09:30');
    expect(starts).not.toContain('11:00');
    expect(starts).toContain('12:00');
    expect(body[0].slots[0]).toEqual({ slot: `${day}T00:00`, time: expect.any(String) });

    const block = await get(
      `/api/calendars/parallel?date=${day}&location=${venue.location.id}&racers=2&sessions=1&block=60&type__in=${venue.type.id}`,
    );
    const seat3 = block.json().find((c: { name: string }) => c.name === 'Sim 3');
    const seat3Starts = seat3.slots.map((s: { slot: string }) => s.slot.slice(11));
    expect(seat3Starts).toContain('10:00');
    expect(seat3Starts).not.toContain('10:30');
    const tooMany = await get(
      `/api/calendars/parallel?date=${day}&location=${venue.location.id}&racers=9`,
    );
    expect(tooMany.json()).toEqual([]);
  });

  it('names bad parallel filters', async () => {
    const loc = venue.location.id;
    for (const [query, field] of [
      [`location=${loc}`, 'date'],
      [`date=${day}`, 'location'],
      [`date=${day}&location=${loc}&block=45`, 'block'],
      [`date=${day}&location=${loc}&sessions=0`, 'sessions'],
      [`date=${day}&location=${loc}&racers=many`, 'racers'],
      [`date=${day}&location=999999`, 'location'],
    ]) {
      const res = await get(`/api/calendars/parallel?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toContain(field);
    }
  });

  it('counts free seats per slot', async () => {
    const res = await get(`/api/avail/quote?date=${day}&location=${venue.location.id}`);
    expect(res.statusCode).toBe(200);
    const bySlot = Object.fromEntries(
      res.json().map((s: { slot: string }) => [s.slot.slice(11), s]),
    );
    expect(bySlot['09:00']).toMatchObject({ available: 4, seats: 4, block: 30 });
    expect(bySlot['11:00']).toMatchObject({ available: 2, seats: 4 });
    expect(bySlot['11:30']).toMatchObject({ available: 3 });
    const bad = await get(`/api/avail/quote?date=${day}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('location');
  });
});
