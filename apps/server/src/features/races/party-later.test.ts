import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  PARTY_START_FAR,
  PARTY_START_OVERLAP,
  PARTY_START_PAST,
  PARTY_STARTED,
} from '@paddock/contract/races';
import { createTestApp, type TestApp } from '../../test/test-app';
import { cutAtAudit } from '../../test/cut-at-audit';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { rigKeys } from '../../db/schema/laps';
import { auditEvents } from '../../db/schema/audit';
import { parties } from '../../db/schema/races';
import { connect } from '../../db/client';
import { sha256Hex } from '../../lib/hash';
import { startDueParties } from './party-starter';

// Decision 0101: a party set up for a later time takes its seats at `starts_at`.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 6 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events'],
  });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });
const eventOf = async (calendarId: number): Promise<number> =>
  (await call('GET', `/api/calendars/${calendarId}`)).json().event;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const startTrail = (partyId: number) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'races.start_party'), eq(auditEvents.targetId, partyId)));
/** The party's time has come (as if the clock moved on), without waiting for it. */
const comeDue = (partyId: number) =>
  t.db
    .update(parties)
    .set({ startsAt: sql`now() - interval '1 millisecond'` })
    .where(eq(parties.id, partyId));

async function laterParty(seats: number[], startsAt: string, name = 'Evening') {
  const made = await call('POST', '/api/races/parties/host', {
    calendar: seats[0],
    name,
    starts_at: startsAt,
  });
  expect(made.statusCode).toBe(201);
  for (const calendar of seats.slice(1)) {
    const added = await call('POST', '/api/races/parties/members', {
      party: made.json().id,
      calendar,
    });
    expect(added.statusCode).toBe(201);
  }
  return made.json() as { id: number; host_event: number; starts_at: string; started: boolean };
}

describe('a party set up for later', () => {
  it('does not take its seats before its time, takes them at its time, switched once', async () => {
    const seats = venue.seats.slice(0, 4).map((s) => s.id);
    const own = await Promise.all(seats.map(eventOf));
    // The morning: seats 1 and 2 run a party now; the evening party is set up for later.
    const morning = (await call('POST', '/api/races/parties/host', { calendar: seats[0] })).json();
    await call('POST', '/api/races/parties/members', { party: morning.id, calendar: seats[1] });
    const party = await laterParty(seats, inHours(9));
    expect(party).toMatchObject({ started: false, starts_at: expect.any(String) });
    // An event of its own: the host's walk-ins keep theirs.
    expect(own).not.toContain(party.host_event);

    // Until then every seat runs what it ran: the morning party, or its own event.
    expect(await Promise.all(seats.map(eventOf))).toEqual([own[0], own[0], own[2], own[3]]);
    const key = `rig_later_${Date.now()}`;
    await t.db.insert(rigKeys).values({ calendarId: seats[3], keyHash: sha256Hex(key) });
    const rigReads = (id: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/races/events/${id}`,
        headers: { authorization: `Rig ${key}` },
      });
    expect((await rigReads(party.host_event)).statusCode).toBe(403);
    expect((await call('GET', `/api/races/events/${own[3]}`)).json().moved_to).toBeNull();
    expect(await startDueParties(t.db)).toEqual([]);

    // Its time comes: the query says so at once, before any timer ran.
    await comeDue(party.id);
    expect(await Promise.all(seats.map(eventOf))).toEqual(seats.map(() => party.host_event));
    expect((await rigReads(party.host_event)).statusCode).toBe(200);

    // Two instances' timers at once: one switches, the other finds nothing.
    const other = connect(t.deps.database.url, 2);
    try {
      const [a, b] = await Promise.all([startDueParties(t.db), startDueParties(other.db)]);
      expect([...a, ...b].filter((id) => id === party.id).length).toBeLessThanOrEqual(1);
    } finally {
      await other.close();
    }
    expect(await startTrail(party.id)).toHaveLength(1);
    // The morning party's host left it for the evening: the morning party ended.
    const list = (await call('GET', `/api/races/parties?location=${venue.location.id}`)).json();
    expect(list.map((p: { id: number }) => p.id)).not.toContain(morning.id);
    const evening = list.find((p: { id: number }) => p.id === party.id);
    expect(evening).toMatchObject({ started: true });
    expect(evening.event.entries).toHaveLength(4);
    expect((await call('GET', `/api/races/events/${own[3]}`)).json().moved_to).toBe(
      party.host_event,
    );

    // Ended: every seat runs its own event again, and the party's event goes with it.
    expect((await call('DELETE', `/api/races/parties/${party.id}`)).statusCode).toBe(204);
    expect(await Promise.all(seats.map(eventOf))).toEqual(own);
    expect((await call('GET', `/api/races/events/${party.host_event}`)).statusCode).toBe(404);
  });

  it('a seat may be in a started party and in later ones a slot apart; overlaps are refused', async () => {
    const [a, b, c] = venue.seats.slice(0, 3).map((s) => s.id);
    const now = (await call('POST', '/api/races/parties/host', { calendar: a })).json();
    const seven = await laterParty([a, b], inHours(7), 'Seven');
    const nine = await laterParty([b, c], inHours(9), 'Nine');

    const near = await call('POST', '/api/races/parties/host', {
      calendar: b,
      starts_at: new Date(Date.parse(seven.starts_at) + 10 * 60_000).toISOString(),
    });
    expect(near.statusCode).toBe(400);
    expect(near.json()).toEqual({ starts_at: [PARTY_START_OVERLAP] });
    const joinNear = await call('POST', '/api/races/parties/members', {
      party: nine.id,
      calendar: a,
    });
    expect(joinNear.statusCode).toBe(201);
    const moved = await call('PATCH', `/api/races/parties/${nine.id}`, {
      starts_at: new Date(Date.parse(seven.starts_at) + 20 * 60_000).toISOString(),
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({ starts_at: [PARTY_START_OVERLAP] });
    // A second party now for a seat in a started one: refused as before.
    const twice = await call('POST', '/api/races/parties/host', { calendar: a });
    expect(twice.json()).toEqual({ calendar: ['This seat is already in a party.'] });
    // A started party's start does not move.
    const started = await call('PATCH', `/api/races/parties/${now.id}`, { starts_at: inHours(3) });
    expect(started.json()).toEqual({ starts_at: [PARTY_STARTED] });
    for (const p of [now, seven, nine]) await call('DELETE', `/api/races/parties/${p.id}`);
  });

  it('refuses bad times naming starts_at, and nothing is made', async () => {
    const seat = venue.seats[4].id;
    const cases: [unknown, string][] = [
      [inHours(-2), PARTY_START_PAST],
      [inHours(24 * 70), PARTY_START_FAR],
      ['19:00', 'Enter an ISO 8601 date and time.'],
      ['2026-13-01T19:00:00Z', 'Enter an ISO 8601 date and time.'],
      [42, expect.any(String)],
    ];
    for (const [value, message] of cases) {
      const r = await call('POST', '/api/races/parties/host', { calendar: seat, starts_at: value });
      expect(r.statusCode, String(value)).toBe(400);
      expect(r.json()).toEqual({ starts_at: [message] });
    }
    expect((await call('GET', `/api/races/parties?location=${venue.location.id}`)).json()).toEqual(
      [],
    );
  });

  it('the timer switches a party moved to "now" at once, on the instance that was asked', async () => {
    const seat = venue.seats[5].id;
    const own = await eventOf(seat);
    const party = await laterParty([seat], inHours(5), 'Soon');
    const now = await call('PATCH', `/api/races/parties/${party.id}`, { starts_at: null });
    expect(now.statusCode).toBe(200);
    expect(now.json().started).toBe(true);
    expect(await eventOf(seat)).toBe(party.host_event);
    for (let i = 0; i < 50 && (await startTrail(party.id)).length === 0; i += 1)
      await new Promise((r) => setTimeout(r, 100));
    expect(await startTrail(party.id)).toHaveLength(1);
    await call('DELETE', `/api/races/parties/${party.id}`);
    expect(await eventOf(seat)).toBe(own);
  });

  it('a switch cut before its audit row leaves nothing half-done; the next pass does it', async () => {
    const [a, b] = venue.seats.slice(0, 2).map((s) => s.id);
    const morning = (await call('POST', '/api/races/parties/host', { calendar: a })).json();
    await call('POST', '/api/races/parties/members', { party: morning.id, calendar: b });
    const party = await laterParty([b], inHours(6), 'Cut');
    // Cut first: the routes above woke the app's own starter, and a pass of it can run now too.
    // It is cut the same way, and while it holds the party this pass skips it, so try again.
    const cut = await cutAtAudit(t.deps.database.url, 'races.start_party');
    await comeDue(party.id);
    try {
      let refused = false;
      for (let i = 0; i < 40 && !refused; i += 1) {
        refused = await startDueParties(t.db).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((r) => setTimeout(r, 50));
      }
      expect(refused).toBe(true);
      // Rolled back: not switched, and seat b is still in the morning party.
      const [row] = await t.db.select().from(parties).where(eq(parties.id, party.id));
      expect(row.switchedAt).toBeNull();
      const list = (await call('GET', `/api/races/parties?location=${venue.location.id}`)).json();
      const m = list.find((p: { id: number }) => p.id === morning.id);
      expect(m.members.map((x: { calendar: number }) => x.calendar)).toEqual([a, b]);
      await cut.heal();
      let ids: number[] = [];
      for (let i = 0; i < 3 && !ids.includes(party.id); i += 1)
        ids = await startDueParties(t.db).catch(() => []);
      expect(await startTrail(party.id)).toHaveLength(1);
      const after = (await call('GET', `/api/races/parties?location=${venue.location.id}`)).json();
      const m2 = after.find((p: { id: number }) => p.id === morning.id);
      expect(m2.members.map((x: { calendar: number }) => x.calendar)).toEqual([a]);
    } finally {
      await cut.close();
      for (const p of [morning, party]) await call('DELETE', `/api/races/parties/${p.id}`);
    }
  });
});
