import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { buildApp } from '../../app';
import { connect } from '../../db/client';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let alice: CreatedUser;
let bob: CreatedUser;
let staff: CreatedUser;
let admin: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(3, zone);
const at = (hhmm: string, date = day) => `${date}T${hhmm}`;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, {
    seats: 3,
    costCents: 4500,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
    salesTaxRatePercent: '8.875',
    specialHours: { [futureDate(4, zone)]: [] },
  });
  alice = await createUser(t, { firstName: 'Alice', lastName: 'Apex' });
  bob = await createUser(t);
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
  admin = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'user.change_user'],
  });
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  user?: CreatedUser,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: user ? bearer(user.token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const book = (user: CreatedUser, body: Record<string, unknown>) =>
  call('POST', '/api/reservations', user, body);

describe('POST /reservations', () => {
  it('books an unpaid seat for the customer with what it will cost', async () => {
    const res = await book(alice, { calendar: venue.seats[0].id, slot: at('18:00') });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number),
      time: expect.stringMatching(new RegExp(`^${day}T18:00:00-0[78]:00$`)),
      calendar: venue.seats[0].id,
      slot: at('18:00'),
      subscription: null,
      paid: false,
      paid_with_credits: false,
      calendar_name: 'Sim 1',
      location: venue.location.id,
      timezone: zone,
      location_name: venue.location.name,
      currency: 'USD',
      user: alice.id,
      user_display_name: 'Alice Apex',
      is_blackout: false,
      notes: '',
      created_by: alice.id,
      created_by_name: 'Alice Apex',
      checkout: null,
      // 4500 + 150 fee = 4650, tax 8.875% = 412.69 → 413
      amount_cents: 5063,
      duration_minutes: 30,
      reservation_ids: [body.id],
    });
  });

  it('answers a taken seat with the uniqueness message', async () => {
    const res = await book(bob, { calendar: venue.seats[0].id, slot: at('18:00') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
  });

  it('derives the slot from the time alone', async () => {
    const time = DateTime.fromISO(at('19:30'), { zone }).toISO();
    const res = await book(bob, { calendar: venue.seats[0].id, time });
    expect(res.statusCode).toBe(201);
    expect(res.json().slot).toBe(at('19:30'));
  });

  it('names the field of every bad booking', async () => {
    const seat = venue.seats[1].id;
    const today = DateTime.now().setZone(zone).toISODate()!;
    const far = DateTime.now().setZone(zone).plus({ months: 2, days: 3 }).toISODate()!;
    const cases: [Record<string, unknown>, string][] = [
      [{ slot: at('10:00') }, 'calendar'],
      [{ calendar: seat }, 'slot'],
      [{ calendar: 'one', slot: at('10:00') }, 'calendar'],
      [{ calendar: 999999, slot: at('10:00') }, 'calendar'],
      [{ calendar: seat, slot: at('10:15') }, 'slot'],
      [{ calendar: seat, slot: 'tomorrow' }, 'slot'],
      [{ calendar: seat, slot: '2026-02-30T10:00' }, 'slot'],
      [{ calendar: seat, slot: at('10:00', futureDate(4, zone)) }, 'slot'], // closed date
      [{ calendar: seat, slot: at('00:00', today) }, 'slot'], // started
      [{ calendar: seat, slot: at('10:00', far) }, 'slot'], // beyond two months
      [{ calendar: seat, time: 'soon' }, 'time'],
      [{ calendar: seat, time: DateTime.fromISO(at('10:10'), { zone }).toISO() }, 'time'],
      [
        {
          calendar: seat,
          slot: at('10:00'),
          time: DateTime.fromISO(at('11:00'), { zone }).toISO(),
        },
        'time',
      ],
      [{ calendar: seat, slot: at('10:00'), subscription: 4 }, 'subscription'],
      [{ calendar: seat, slot: at('10:00'), colour: 'red' }, 'colour'],
    ];
    for (const [payload, field] of cases) {
      const res = await book(alice, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json()), JSON.stringify(payload)).toContain(field);
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: { ...bearer(alice.token), 'content-type': 'application/json' },
      payload: '{"calendar":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('keeps customers out of staff fields and strangers out entirely', async () => {
    const seat = venue.seats[1].id;
    expect(
      (await call('POST', '/api/reservations', undefined, { calendar: seat, slot: at('10:00') }))
        .statusCode,
    ).toBe(401);
    for (const extra of [
      { is_blackout: true },
      { paid: true },
      { user: bob.id },
      { notes: 'VIP' },
    ]) {
      const res = await book(alice, { calendar: seat, slot: at('10:00'), ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(403);
    }
  });

  it('lets staff black out a seat and book for a customer', async () => {
    const blackout = await book(staff, {
      calendar: venue.seats[2].id,
      slot: at('12:00'),
      is_blackout: true,
      notes: 'Maintenance',
    });
    expect(blackout.statusCode).toBe(201);
    expect(blackout.json()).toMatchObject({
      is_blackout: true,
      user: null,
      user_display_name: null,
      notes: 'Maintenance',
      created_by: staff.id,
      amount_cents: 0,
    });
    const withUser = await book(staff, {
      calendar: venue.seats[2].id,
      slot: at('12:30'),
      is_blackout: true,
      user: bob.id,
    });
    expect(withUser.statusCode).toBe(400);
    expect(withUser.json()).toHaveProperty('user');
    const forBob = await book(staff, {
      calendar: venue.seats[2].id,
      slot: at('12:30'),
      user: bob.id,
      paid: true,
    });
    expect(forBob.statusCode).toBe(201);
    expect(forBob.json()).toMatchObject({ user: bob.id, paid: true, created_by: staff.id });
    const ghost = await book(staff, {
      calendar: venue.seats[2].id,
      slot: at('13:00'),
      user: 999999,
    });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json()).toHaveProperty('user');
  });
});

describe('GET /reservations and /users/me/reservations/future', () => {
  it('shows customers only their own, whatever they ask for', async () => {
    const own = (await call('GET', '/api/reservations', alice)).json();
    expect(own.results.every((r: { user: number }) => r.user === alice.id)).toBe(true);
    const sneaky = (await call('GET', `/api/reservations?user=${bob.id}`, alice)).json();
    expect(sneaky.results.every((r: { user: number }) => r.user === alice.id)).toBe(true);
    expect((await call('GET', '/api/reservations')).statusCode).toBe(401);
  });

  it('lets staff filter everyone’s', async () => {
    const all = (
      await call('GET', `/api/reservations?slot__startswith=${day}&page_size=100`, staff)
    ).json();
    expect(all.count).toBeGreaterThanOrEqual(4);
    const bobs = (await call('GET', `/api/reservations?user=${bob.id}`, staff)).json();
    expect(bobs.results.every((r: { user: number }) => r.user === bob.id)).toBe(true);
    const seat = (
      await call('GET', `/api/reservations?calendar=${venue.seats[2].id}`, staff)
    ).json();
    expect(seat.results.map((r: { slot: string }) => r.slot)).toEqual([at('12:00'), at('12:30')]);
    const desc = (
      await call('GET', `/api/reservations?calendar=${venue.seats[2].id}&ordering=-slot`, staff)
    ).json();
    expect(desc.results.map((r: { slot: string }) => r.slot)).toEqual([at('12:30'), at('12:00')]);
    const blackouts = (await call('GET', '/api/reservations?is_blackout=true', staff)).json();
    expect(blackouts.results.map((r: { notes: string }) => r.notes)).toEqual(['Maintenance']);
    const hour = (await call('GET', `/api/reservations?slot__startswith=${day}T12`, staff)).json();
    expect(hour.count).toBe(2);
  });

  it('names bad filters', async () => {
    for (const [query, field] of [
      ['user=abc', 'user'],
      ['calendar=-1', 'calendar'],
      ['future=maybe', 'future'],
      ['group_base=2', 'group_base'],
      ['slot__startswith=21%25', 'slot__startswith'],
      ['slot__startswith=2026-1', 'slot__startswith'],
      ['ordering=name', 'ordering'],
      ['page_size=101', 'page_size'],
      ['page=0', 'page'],
    ]) {
      const res = await call('GET', `/api/reservations?${query}`, staff);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toContain(field);
    }
    expect((await call('GET', '/api/reservations?page=99', staff)).statusCode).toBe(404);
  });

  it('groups back-to-back slots with group_base', async () => {
    const carol = await createUser(t);
    for (const hhmm of ['14:00', '14:30', '15:00', '16:00'])
      expect((await book(carol, { calendar: venue.seats[1].id, slot: at(hhmm) })).statusCode).toBe(
        201,
      );
    const plain = (await call('GET', '/api/users/me/reservations/future', carol)).json();
    expect(plain.count).toBe(4);
    const grouped = (
      await call('GET', '/api/users/me/reservations/future?group_base=true', carol)
    ).json();
    expect(grouped.count).toBe(2);
    expect(grouped.results[0]).toMatchObject({
      slot: at('14:00'),
      duration_minutes: 90,
      amount_cents: 3 * 5063,
    });
    expect(grouped.results[0].reservation_ids).toHaveLength(3);
    expect(grouped.results[1]).toMatchObject({ slot: at('16:00'), duration_minutes: 30 });
    const staffGrouped = (
      await call('GET', `/api/reservations?user=${carol.id}&group_base=1&future=true`, staff)
    ).json();
    expect(staffGrouped.count).toBe(2);
  });

  it('lists only what is not over yet as future', async () => {
    const future = (await call('GET', '/api/users/me/reservations/future', alice)).json();
    expect(future.results.map((r: { slot: string }) => r.slot)).toEqual([at('18:00')]);
    const bad = await call('GET', '/api/users/me/reservations/future?page_size=500', alice);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('page_size');
  });
});

describe('PATCH/PUT/DELETE /reservations/{id}', () => {
  it('lets a customer move and cancel their own, never another’s', async () => {
    const created = (await book(alice, { calendar: venue.seats[0].id, slot: at('09:00') })).json();
    const moved = await call('PATCH', `/api/reservations/${created.id}`, alice, {
      slot: at('09:30'),
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().slot).toBe(at('09:30'));
    const put = await call('PUT', `/api/reservations/${created.id}`, alice, {
      calendar: venue.seats[1].id,
      slot: at('09:30'),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().calendar_name).toBe('Sim 2');

    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await call(
        method,
        `/api/reservations/${created.id}`,
        bob,
        method === 'PATCH' ? { slot: at('10:00') } : undefined,
      );
      expect(res.statusCode, method).toBe(404);
    }
    expect(
      (await call('PATCH', `/api/reservations/${created.id}`, alice, { paid: true })).statusCode,
    ).toBe(403);

    expect((await call('DELETE', `/api/reservations/${created.id}`, alice)).statusCode).toBe(204);
    expect((await call('GET', `/api/reservations/${created.id}`, alice)).statusCode).toBe(404);
    // The seat is free again.
    expect((await book(bob, { calendar: venue.seats[1].id, slot: at('09:30') })).statusCode).toBe(
      201,
    );
  });

  it('refuses a move onto a taken seat with the uniqueness message', async () => {
    const mine = (await book(alice, { calendar: venue.seats[0].id, slot: at('20:00') })).json();
    const res = await call('PATCH', `/api/reservations/${mine.id}`, alice, { slot: at('19:30') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    const bad = await call('PATCH', `/api/reservations/${mine.id}`, alice, { slot: at('20:10') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('slot');
    expect((await call('PATCH', '/api/reservations/abc', alice, {})).statusCode).toBe(400);
  });

  it('lets staff mark paid, add notes, black out and cancel anyone’s', async () => {
    const r = (await book(bob, { calendar: venue.seats[0].id, slot: at('21:00') })).json();
    const paid = await call('PATCH', `/api/reservations/${r.id}`, staff, {
      paid: true,
      notes: 'Cash',
    });
    expect(paid.json()).toMatchObject({ paid: true, notes: 'Cash', user: bob.id });
    // A booked slot is not blacked out (staff-booking.test.ts); it is cancelled.
    const blacked = await call('PATCH', `/api/reservations/${r.id}`, staff, { is_blackout: true });
    expect(blacked.statusCode).toBe(400);
    expect((await call('DELETE', `/api/reservations/${r.id}`, staff)).statusCode).toBe(204);
  });
});

describe('the race for one seat', () => {
  it('gives exactly one of 50 concurrent bookings the seat', async () => {
    const racers: CreatedUser[] = [];
    for (let i = 0; i < 50; i += 1) racers.push(await createUser(t));
    const results = await Promise.all(
      racers.map((u) => book(u, { calendar: venue.seats[2].id, slot: at('22:00') })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 400)).toHaveLength(49);
    for (const r of results.filter((x) => x.statusCode === 400))
      expect(r.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    const live = (
      await call(
        'GET',
        `/api/reservations?calendar=${venue.seats[2].id}&slot__startswith=${at('22:00')}`,
        staff,
      )
    ).json();
    expect(live.count).toBe(1);
  });

  it('gives exactly one winner across two API instances sharing the database', async () => {
    const database = connect(t.deps.database.url, 10);
    const second = await buildApp({ ...t.deps, database });
    await second.ready();
    try {
      const racers: CreatedUser[] = [];
      for (let i = 0; i < 20; i += 1) racers.push(await createUser(t));
      const results = await Promise.all(
        racers.map((u, i) =>
          (i % 2 ? second : t.app).inject({
            method: 'POST',
            url: '/api/reservations',
            headers: bearer(u.token),
            payload: { calendar: venue.seats[1].id, slot: at('22:30') },
          }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 400)).toHaveLength(19);
    } finally {
      await second.close();
      await database.close();
    }
  });
});

describe('GET /feed.ics', () => {
  it('serves staff an iCalendar of reservations and blackouts, by header or feed token', async () => {
    const viaHeader = await call('GET', '/api/feed.ics', staff);
    expect(viaHeader.statusCode).toBe(200);
    expect(viaHeader.headers['content-type']).toContain('text/calendar');
    expect(viaHeader.body).toContain('BEGIN:VCALENDAR');
    expect(viaHeader.body).toContain('BEGIN:VTIMEZONE');
    expect(viaHeader.body).toContain('SUMMARY:Sim 3: Blackout: Maintenance');
    expect(viaHeader.body).toContain(
      `DTSTART;TZID=America/Los_Angeles:${day.replaceAll('-', '')}T120000`,
    );
    const link = await call('POST', '/api/feed_token', staff);
    expect(link.statusCode).toBe(200);
    const url = new URL(link.json().url);
    expect(url.pathname).toBe('/api/feed.ics');
    const viaQuery = await call(
      'GET',
      `${url.pathname}${url.search}&location=${venue.location.id}`,
    );
    expect(viaQuery.statusCode).toBe(200);
    expect(viaQuery.body).toContain('Blackout');
    // The feed token opens the feed and nothing else; a reset link ends the old one.
    const feedToken = url.searchParams.get('token')!;
    const asSession = await t.app.inject({ url: '/api/users/me', headers: bearer(feedToken) });
    expect(asSession.statusCode).toBe(401);
    await call('POST', '/api/feed_token', staff);
    expect((await call('GET', `${url.pathname}${url.search}`)).statusCode).toBe(401);
  });

  it('never takes a session token in the URL', async () => {
    expect((await call('GET', `/api/feed.ics?token=${staff.token}`)).statusCode).toBe(401);
  });

  it('is closed to customers and strangers', async () => {
    expect((await call('GET', '/api/feed.ics')).statusCode).toBe(401);
    expect((await call('GET', '/api/feed.ics?token=nonsense')).statusCode).toBe(401);
    expect((await call('GET', `/api/feed.ics?token=${alice.token}`)).statusCode).toBe(401);
    expect((await call('POST', '/api/feed_token', alice)).statusCode).toBe(403);
    expect((await call('GET', '/api/feed.ics', alice)).statusCode).toBe(403);
    const bad = await call('GET', '/api/feed.ics?location=x', staff);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('location');
  });
});

describe('balance', () => {
  it('lists a customer’s unpaid reservations', async () => {
    const dave = await createUser(t);
    await book(dave, { calendar: venue.seats[0].id, slot: at('08:00') });
    await book(dave, { calendar: venue.seats[0].id, slot: at('08:30') });
    const res = await call('GET', '/api/users/me/balance', dave);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      amount_cents: 2 * 5063,
      currency: 'USD',
      detail: [
        {
          description: expect.stringMatching(/^Sim 1, .* 8:00 AM$/),
          amount_cents: 5063,
          currency: 'USD',
        },
        {
          description: expect.stringMatching(/^Sim 1, .* 8:30 AM$/),
          amount_cents: 5063,
          currency: 'USD',
        },
      ],
    });
    expect((await call('GET', `/api/users/${dave.id}/balance`, dave)).json().amount_cents).toBe(
      10126,
    );
    expect((await call('GET', `/api/users/${dave.id}/balance`, staff)).json().amount_cents).toBe(
      10126,
    );
    expect((await call('GET', `/api/users/${dave.id}/balance`, bob)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/999999/balance', staff)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/x/balance', staff)).statusCode).toBe(400);

    // The card cost lookup: the same items grouped by seat and price.
    const fay = await createUser(t);
    await book(fay, { calendar: venue.seats[0].id, slot: at('10:00') });
    await book(fay, { calendar: venue.seats[0].id, slot: at('10:30') });
    await book(fay, { calendar: venue.seats[1].id, slot: at('10:00') });
    const cost = await call('GET', `/api/users/${fay.id}/cost_breakdown`, staff);
    expect(cost.statusCode).toBe(200);
    expect(cost.json()).toEqual({
      total: 3 * 5063,
      currency: 'USD',
      items: [
        { description: 'Sim 1 (30 min)', qty: 2, amount_each: 5063, amount: 10126 },
        { description: 'Sim 2 (30 min)', qty: 1, amount_each: 5063, amount: 5063 },
      ],
    });
    expect((await call('GET', `/api/users/${fay.id}/cost_breakdown`, bob)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/me/cost_breakdown', fay)).json().total).toBe(3 * 5063);

    // Clearing needs both staff permissions.
    expect((await call('POST', `/api/users/${dave.id}/clear_outstanding`, staff)).statusCode).toBe(
      403,
    );
    expect((await call('POST', `/api/users/${dave.id}/clear_outstanding`, dave)).statusCode).toBe(
      403,
    );
    const cleared = await call('POST', `/api/users/${dave.id}/clear_outstanding`, admin);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({
      detail: 'All outstanding line items have been marked as Paid',
    });
    expect((await call('GET', '/api/users/me/balance', dave)).json()).toEqual({
      amount_cents: 0,
      currency: 'USD',
      detail: [],
    });
  });

  it('cannot capture without a card', async () => {
    const erin = await createUser(t);
    await book(erin, { calendar: venue.seats[1].id, slot: at('07:00') });
    const res = await call('POST', '/api/users/me/charges/capture_outstanding', erin);
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toBe('No payment method on file.');
    expect((await call('GET', '/api/users/me/balance', erin)).json().amount_cents).toBe(5063);
    const fresh = await createUser(t);
    const nothing = await call('POST', '/api/users/me/charges/capture_outstanding', fresh);
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json()).toEqual({ detail: 'Nothing outstanding.', amount_cents: 0 });
  });
});
