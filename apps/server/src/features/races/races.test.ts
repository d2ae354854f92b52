import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { cutAtAudit } from '../../test/cut-at-audit';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createSeat, createVenue } from '../../test/booking-factories';
import { cars, rigKeys, skins, tracks } from '../../db/schema/laps';
import { auditEvents } from '../../db/schema/audit';
import { sha256Hex } from '../../lib/hash';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let elsewhere: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let plainStaff: CreatedUser;
let customer: CreatedUser;
let car1: number;
let car2: number;
let skin1: number;
let skin2: number;
let track: number;

const rigKeyFor = async (calendarId: number) => {
  const key = `rig_test_${calendarId}_${Math.random().toString(36).slice(2)}`;
  await t.db.insert(rigKeys).values({ calendarId, keyHash: sha256Hex(key) });
  return key;
};

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 4 });
  elsewhere = await createVenue(t, { seats: 1 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events'],
  });
  plainStaff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
  customer = await createUser(t);
  [{ id: track }] = await t.db
    .insert(tracks)
    .values({ sim: 'ac', key: 'ks_monza', layout: '', name: 'Monza' })
    .returning({ id: tracks.id });
  [{ id: car1 }, { id: car2 }] = await t.db
    .insert(cars)
    .values([
      { sim: 'ac', key: 'ks_mazda_mx5_cup', name: 'Mazda MX-5 Cup' },
      { sim: 'ac', key: 'ks_porsche_911_gt3_r_2016', name: 'Porsche 911 GT3 R' },
    ])
    .returning({ id: cars.id });
  [{ id: skin1 }, { id: skin2 }] = await t.db
    .insert(skins)
    .values([
      { carId: car1, key: 'red', name: 'Red' },
      { carId: car2, key: 'white', name: 'White' },
    ])
    .returning({ id: skins.id });
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  who: CreatedUser | null = staff,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: who ? bearer(who.token) : {},
    ...(payload ? { payload } : {}),
  });

const eventOf = async (calendarId: number): Promise<number> =>
  (await call('GET', `/api/calendars/${calendarId}`)).json().event;

describe('every seat has its own event', () => {
  it('with the default sessions and one entry, shown as the calendar’s event', async () => {
    const id = await eventOf(venue.seats[0].id);
    const res = await call('GET', `/api/races/events/${id}`);
    expect(res.statusCode).toBe(200);
    const event = res.json();
    expect(event.calendar).toBe(venue.seats[0].id);
    expect(event.party).toBeNull();
    expect(
      event.sessions.map((s: { type: string; duration: number; spawn: string }) => [
        s.type,
        s.duration,
        s.spawn,
      ]),
    ).toEqual([
      ['PRACTICE', 25, 'PIT'],
      ['QUALIFYING', 10, 'PIT'],
      ['RACE', 10, 'START'],
    ]);
    expect(event.entries).toHaveLength(1);
    expect(event.entries[0]).toMatchObject({
      calendar: venue.seats[0].id,
      calendar_name: 'Sim 1',
      state: 'none',
    });
  });

  it('the launcher overview lists what each seat runs, a party’s event once', async () => {
    const [a, b, c, d] = venue.seats;
    const party = (await call('POST', '/api/races/parties/host', staff, { calendar: b.id })).json();
    await call('POST', '/api/races/parties/members', staff, { party: party.id, calendar: c.id });
    const res = await call('GET', `/api/races/events?location=${venue.location.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((e: { id: number }) => e.id)).toEqual([
      await eventOf(a.id),
      party.host_event,
      await eventOf(d.id),
    ]);
    expect((await call('GET', '/api/races/events', customer)).statusCode).toBe(403);
    await call('DELETE', `/api/races/parties/${party.id}`);
  });

  it('a new seat gets one too', async () => {
    const seat = await createSeat(t, {
      locationId: elsewhere.location.id,
      typeId: elsewhere.type.id,
    });
    expect(await eventOf(seat.id)).toEqual(expect.any(Number));
  });
});

describe('parties', () => {
  it('host, add members, list, leave, delete: members share the host event and get theirs back', async () => {
    const [host, guest, third] = venue.seats;
    const hostEvent = await eventOf(host.id);
    const guestOwn = await eventOf(guest.id);

    const made = await call('POST', '/api/races/parties/host', staff, { calendar: host.id });
    expect(made.statusCode).toBe(201);
    const party = made.json();
    expect(party).toMatchObject({
      name: "Sim 1's Party",
      location: venue.location.id,
      host_event: hostEvent,
      host_calendar: host.id,
      member_requests: [],
    });
    expect(party.members).toEqual([
      expect.objectContaining({ calendar: host.id, is_host: true, calendar_name: 'Sim 1' }),
    ]);

    const added = await call('POST', '/api/races/parties/members', staff, {
      party: party.id,
      calendar: guest.id,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ party: party.id, calendar: guest.id, is_host: false });
    expect(await eventOf(guest.id)).toBe(hostEvent);
    const third1 = await call('POST', '/api/races/parties/members', staff, {
      party: party.id,
      calendar: third.id,
    });
    expect(third1.statusCode).toBe(201);

    // A seat is in at most one party.
    const twice = await call('POST', '/api/races/parties/members', staff, {
      party: party.id,
      calendar: guest.id,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ calendar: ['This seat is already in a party.'] });
    const hostAgain = await call('POST', '/api/races/parties/host', staff, {
      calendar: guest.id,
      name: 'Other',
    });
    expect(hostAgain.json()).toEqual({ calendar: ['This seat is already in a party.'] });
    // Seats of the party's location only.
    const far = await call('POST', '/api/races/parties/members', staff, {
      party: party.id,
      calendar: elsewhere.seats[0].id,
    });
    expect(far.json()).toEqual({ calendar: ["This seat is not at the party's location."] });

    const list = await call('GET', `/api/races/parties?location=${venue.location.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0].members.map((m: { calendar: number }) => m.calendar)).toEqual([
      host.id,
      guest.id,
      third.id,
    ]);
    expect(list.json()[0].event.entries).toHaveLength(3);
    expect(
      (await call('GET', `/api/races/parties?location=${elsewhere.location.id}`)).json(),
    ).toEqual([]);

    const guestMember = list.json()[0].members[1].id;
    expect((await call('DELETE', `/api/races/parties/members/${guestMember}`)).statusCode).toBe(
      204,
    );
    expect(await eventOf(guest.id)).toBe(guestOwn);
    expect((await call('GET', `/api/races/events/${hostEvent}`)).json().entries).toHaveLength(2);

    expect((await call('DELETE', `/api/races/parties/${party.id}`)).statusCode).toBe(204);
    expect(await eventOf(third.id)).not.toBe(hostEvent);
    expect((await call('GET', `/api/races/events/${hostEvent}`)).json().entries).toHaveLength(1);
    expect((await call('DELETE', `/api/races/parties/${party.id}`)).statusCode).toBe(404);

    const trail = await t.db.select().from(auditEvents).where(eq(auditEvents.actorId, staff.id));
    expect(trail.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'races.host_party',
        'races.add_member',
        'races.remove_member',
        'races.delete_party',
      ]),
    );
  });

  it('a rename cut off after the name is written, before its audit row, leaves the old name', async () => {
    const made = await call('POST', '/api/races/parties/host', staff, {
      calendar: venue.seats[3].id,
      name: 'Before the cut',
    });
    const url = `/api/races/parties/${made.json().id}`;
    const cutter = await cutAtAudit(t.deps.database.url, 'races.rename_party');
    try {
      const cut = await call('PATCH', url, staff, { name: 'After the cut' });
      expect(cut.statusCode).toBeGreaterThanOrEqual(500);
      expect(
        (await call('GET', `/api/races/parties?location=${venue.location.id}`)).json(),
      ).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Before the cut' })]));
      await cutter.heal();
      let again = await call('PATCH', url, staff, { name: 'After the cut' });
      // The pool may hand out one more ended connection before it notices.
      if (again.statusCode >= 500)
        again = await call('PATCH', url, staff, { name: 'After the cut' });
      expect(again.json().name).toBe('After the cut');
    } finally {
      await cutter.close();
      await call('DELETE', url);
    }
  });

  it('takes the given name, and refuses unknown seats and parties naming the field', async () => {
    const named = await call('POST', '/api/races/parties/host', staff, {
      calendar: venue.seats[3].id,
      name: '  Friday Night  ',
    });
    expect(named.json().name).toBe('Friday Night');

    // Renamed: trimmed, audited; an empty body or the same name changes nothing.
    const url = `/api/races/parties/${named.json().id}`;
    const renamed = await call('PATCH', url, staff, { name: ' Saturday Crew ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: named.json().id, name: 'Saturday Crew' });
    expect((await call('PATCH', url, staff, {})).json().name).toBe('Saturday Crew');
    const blank = await call('PATCH', url, staff, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toHaveProperty('name');
    expect((await call('PATCH', url, staff, { name: 'x'.repeat(101) })).statusCode).toBe(400);
    expect(
      (await call('PATCH', '/api/races/parties/2147483647', staff, { name: 'A' })).statusCode,
    ).toBe(404);
    const renames = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'races.rename_party'),
          eq(auditEvents.targetId, named.json().id),
        ),
      );
    expect(renames.map((a) => [a.before, a.after])).toEqual([
      [{ name: 'Friday Night' }, { name: 'Saturday Crew' }],
    ]);
    expect(
      (await call('POST', '/api/races/parties/host', staff, { calendar: 2 ** 31 - 1 })).json(),
    ).toEqual({ calendar: ['Invalid pk "2147483647" - object does not exist.'] });
    expect(
      (
        await call('POST', '/api/races/parties/members', staff, {
          party: 2 ** 31 - 1,
          calendar: venue.seats[0].id,
        })
      ).json(),
    ).toEqual({ party: ['Invalid pk "2147483647" - object does not exist.'] });
    expect((await call('POST', '/api/races/parties/host', staff, {})).json()).toEqual({
      calendar: ['A valid integer is required.'],
    });
    expect((await call('DELETE', `/api/races/parties/${named.json().id}`)).statusCode).toBe(204);
  });
});

describe('editing an event', () => {
  it('track, cars, sessions, entries with car and skin, assists and flags', async () => {
    const id = await eventOf(venue.seats[1].id);
    const res = await call('PATCH', `/api/races/events/${id}`, staff, {
      track,
      cars: [car1, car2],
      sessions: [
        { type: 'PRACTICE', duration: 15 },
        { type: 'RACE', duration: 5, duration_is_laps: true },
      ],
      entries: [{ calendar: venue.seats[1].id, car: car1, skin: skin1, user: customer.id }],
      assists: ['abs', 'ideal_line'],
      penalties: false,
      fixed_setup: true,
      drift_mode: false,
    });
    expect(res.statusCode).toBe(200);
    const event = res.json();
    expect(event).toMatchObject({
      track,
      cars: [car1, car2],
      assists: ['abs', 'ideal_line'],
      penalties: false,
      fixed_setup: true,
    });
    expect(event.sessions).toEqual([
      expect.objectContaining({ type: 'PRACTICE', name: 'Practice', spawn: 'PIT', ordering: 0 }),
      expect.objectContaining({
        type: 'RACE',
        duration: 5,
        duration_is_laps: true,
        spawn: 'START',
      }),
    ]);
    expect(event.entries[0]).toMatchObject({ car: car1, skin: skin1, user: customer.id });

    // Dropping a car from the set takes it (and its skin) off the seat.
    const narrowed = await call('PUT', `/api/races/events/${id}`, staff, { cars: [car2] });
    expect(narrowed.json().entries[0]).toMatchObject({ car: null, skin: null });
  });

  it('refuses bad values, naming the field', async () => {
    const id = await eventOf(venue.seats[2].id);
    const seat = venue.seats[2].id;
    await call('PATCH', `/api/races/events/${id}`, staff, { cars: [car1] });
    const cases: [object, string][] = [
      [{ sessions: [{ type: 'RACE', duration: 0 }] }, 'sessions.0.duration'],
      [{ sessions: [{ type: 'RACE', duration: 241 }] }, 'sessions.0.duration'],
      [{ sessions: [{ type: 'RACE', duration: 201, duration_is_laps: true }] }, 'sessions'],
      [
        {
          sessions: [
            { type: 'RACE', duration: 5 },
            { type: 'RACE', duration: 5 },
          ],
        },
        'sessions',
      ],
      [{ sessions: [] }, 'sessions'],
      [{ sessions: [{ type: 'SPRINT', duration: 5 }] }, 'sessions.0.type'],
      [{ sessions: [{ type: 'RACE', duration: 5, spawn: 'GRID' }] }, 'sessions.0.spawn'],
      [{ track: 2 ** 31 - 1 }, 'track'],
      [{ cars: [2 ** 31 - 1] }, 'cars'],
      [{ preset: 2 ** 31 - 1 }, 'preset'],
      [{ assists: ['autopilot'] }, 'assists.0'],
      [{ penalties: 'yes' }, 'penalties'],
      [{ fixed_setup: 1 }, 'fixed_setup'],
      [{ drift_mode: null }, 'drift_mode'],
      [{ entries: [{ calendar: seat, car: car2 }] }, 'entries'],
      [{ entries: [{ calendar: seat, car: car1, skin: skin2 }] }, 'entries'],
      [{ entries: [{ calendar: venue.seats[0].id, car: car1 }] }, 'entries'],
      [{ entries: [{ calendar: seat, user: 2 ** 31 - 1 }] }, 'entries'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await call('PATCH', `/api/races/events/${id}`, staff, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json()), JSON.stringify(body)).toContain(field);
    }
    expect((await call('PATCH', `/api/races/events/${2 ** 31 - 1}`, staff, {})).statusCode).toBe(
      404,
    );
  });

  it('HOTLAP only for a single seat', async () => {
    const [a, b] = [venue.seats[0].id, venue.seats[3].id];
    const own = await eventOf(a);
    const single = await call('PATCH', `/api/races/events/${own}`, staff, {
      sessions: [{ type: 'HOTLAP', duration: 20 }],
    });
    expect(single.statusCode).toBe(200);
    expect(single.json().sessions[0].spawn).toBe('HOTLAP_START');
    // Hosting a party puts the multiplayer defaults back.
    const party = (await call('POST', '/api/races/parties/host', staff, { calendar: a })).json();
    expect(party.event.sessions.map((s: { type: string }) => s.type)).toEqual([
      'PRACTICE',
      'QUALIFYING',
      'RACE',
    ]);
    await call('POST', '/api/races/parties/members', staff, { party: party.id, calendar: b });
    const multi = await call('PATCH', `/api/races/events/${own}`, staff, {
      sessions: [{ type: 'PRACTICE', duration: 20, spawn: 'HOTLAP_START' }],
    });
    expect(multi.statusCode).toBe(400);
    expect(multi.json().sessions[0]).toMatch(/single seat/);
    await call('DELETE', `/api/races/parties/${party.id}`);
  });
});

describe('presets', () => {
  it('saves an event as a preset and loads it into another event', async () => {
    const from = await eventOf(venue.seats[1].id);
    await call('PATCH', `/api/races/events/${from}`, staff, {
      track,
      cars: [car2],
      sessions: [{ type: 'RACE', duration: 5, duration_is_laps: true }],
      drift_mode: true,
    });
    const saved = await call('POST', '/api/races/presets', staff, { event: from, name: 'Sprint' });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ name: 'Sprint', track, cars: [car2], drift_mode: true });
    expect((await call('GET', '/api/races/presets')).json()).toEqual([saved.json()]);

    const into = await eventOf(venue.seats[2].id);
    const loaded = await call('PATCH', `/api/races/events/${into}`, staff, {
      preset: saved.json().id,
      penalties: false,
    });
    expect(loaded.statusCode).toBe(200);
    expect(loaded.json()).toMatchObject({
      preset: saved.json().id,
      track,
      cars: [car2],
      drift_mode: true,
      penalties: false,
    });
    expect(loaded.json().sessions).toEqual([
      expect.objectContaining({ type: 'RACE', duration: 5, duration_is_laps: true }),
    ]);
    expect(
      (await call('POST', '/api/races/presets', staff, { event: from, name: '' })).json(),
    ).toHaveProperty('name');
    expect((await call('DELETE', `/api/races/presets/${saved.json().id}`)).statusCode).toBe(204);
  });
});

describe('drivers', () => {
  it('finds people by name with only id, name and racer name; not for customers', async () => {
    const driver = await createUser(t, { firstName: 'Zelda', lastName: 'Quickfoot' });
    const res = await call('GET', '/api/races/drivers?search=zelda quick');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ id: driver.id, name: 'Zelda Quickfoot', racer_name: '' }]);
    expect((await call('GET', '/api/races/drivers?search=nobody-at-all')).json()).toEqual([]);
    expect((await call('GET', '/api/races/drivers', customer)).statusCode).toBe(403);
  });
});

describe('skins and assists', () => {
  it('lists the skins of one car', async () => {
    const res = await call('GET', `/api/skins?car=${car1}`, null);
    expect(res.json()).toMatchObject({
      count: 1,
      results: [{ id: skin1, car: car1, name: 'Red' }],
    });
    expect((await call('GET', '/api/races/assists', null)).json()).toContainEqual({
      id: 'abs',
      name: 'ABS',
    });
  });
});

describe('who may', () => {
  it('staff without the permission, a customer and anonymous are refused; nothing changes', async () => {
    const id = await eventOf(venue.seats[0].id);
    const before = (await call('GET', `/api/races/events/${id}`)).json();
    for (const [who, status] of [
      [plainStaff, 403],
      [customer, 403],
      [null, 401],
    ] as const) {
      expect((await call('GET', `/api/races/events/${id}`, who)).statusCode).toBe(status);
      expect(
        (await call('PATCH', `/api/races/events/${id}`, who, { drift_mode: true })).statusCode,
      ).toBe(status);
      expect(
        (await call('POST', '/api/races/parties/host', who, { calendar: venue.seats[0].id }))
          .statusCode,
      ).toBe(status);
      expect((await call('POST', `/api/races/events/${id}/ticket`, who)).statusCode).toBe(status);
      expect(
        (await call('POST', `/api/races/events/${id}/signal`, who, { signal: 'RELOAD' }))
          .statusCode,
      ).toBe(status);
    }
    expect((await call('GET', `/api/races/events/${id}`)).json()).toEqual(before);
  });

  it('a rig key reads its own seat’s event (and its party’s), not another seat’s', async () => {
    const [a, b, c] = venue.seats;
    const key = await rigKeyFor(b.id);
    const rig = (url: string, method: 'GET' | 'PATCH' = 'GET') =>
      t.app.inject({
        method,
        url,
        headers: { authorization: `Rig ${key}` },
        payload: method === 'PATCH' ? {} : undefined,
      });
    expect((await rig(`/api/races/events/${await eventOf(b.id)}`)).statusCode).toBe(200);
    expect((await rig(`/api/races/events/${await eventOf(c.id)}`)).statusCode).toBe(403);
    const party = (await call('POST', '/api/races/parties/host', staff, { calendar: a.id })).json();
    expect((await rig(`/api/races/events/${party.host_event}`)).statusCode).toBe(403);
    await call('POST', '/api/races/parties/members', staff, { party: party.id, calendar: b.id });
    expect((await rig(`/api/races/events/${party.host_event}`)).statusCode).toBe(200);
    // A rig never changes an event.
    expect((await rig(`/api/races/events/${party.host_event}`, 'PATCH')).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: `/api/races/events/${party.host_event}`,
      headers: { authorization: 'Rig rig_not_a_key' },
    });
    expect(wrong.statusCode).toBe(401);
    await call('DELETE', `/api/races/parties/${party.id}`);
  });
});
