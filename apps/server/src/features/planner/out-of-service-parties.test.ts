import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import type { Party } from '@paddock/contract/races';
import { slotAround } from './planner.service';

// A seat out of service and the parties it is in (issue 41, decision 0117).

let t: TestApp;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'leaderboards.can_manage_race_events'],
  });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });

/** A party running now: hosted by `host`, with `guests`. */
async function partyOf(host: number, guests: number[], name: string) {
  const made = await call('POST', '/api/races/parties/host', { calendar: host, name });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json().id as number;
  for (const calendar of guests) {
    const res = await call('POST', '/api/races/parties/members', { party: id, calendar });
    expect(res.statusCode, res.body).toBe(201);
  }
  return id;
}

async function partyNow(location: number, id: number): Promise<Party> {
  const res = await call('GET', `/api/races/parties?location=${location}`);
  expect(res.statusCode, res.body).toBe(200);
  const list = res.json() as Party[] | { results: Party[] };
  return (Array.isArray(list) ? list : list.results).find((p) => p.id === id)!;
}

const nextSlot = (slot: string) =>
  DateTime.fromISO(slot, { zone }).plus({ minutes: 30 }).toFormat("yyyy-MM-dd'T'HH:mm");

describe('a seat out of service that races in a party', () => {
  it("moves a guest's place to where its driver's booking went", async () => {
    const venue = await createVenue(t, { seats: 3 });
    const [sim1, sim2, sim3] = venue.seats.map((s) => s.id);
    const party = await partyOf(sim3, [sim1], 'Friday Night');
    const ann = await createUser(t, { firstName: 'Ann' });
    const now = slotAround(new Date(), zone);
    const booked = await call('POST', '/api/planner/book', {
      user: ann.id,
      slots: [{ calendar: sim1, slot: nextSlot(now) }],
      payment: 'desk',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const range = { calendar: sim1, from: now, to: nextSlot(now) };

    const preview = await call(
      'GET',
      `/api/planner/out_of_service?calendar=${sim1}&from=${range.from}&to=${range.to}`,
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().parties).toEqual([
      {
        party,
        party_name: 'Friday Night',
        is_host: false,
        to_calendar: sim2,
        to_calendar_name: 'Sim 2',
      },
    ]);

    const res = await call('POST', '/api/planner/out_of_service', range);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().detail).toBe(
      'Sim 1 is out of service: 1 moved, 0 cancelled. In Friday Night its place moved to Sim 2.',
    );
    const after = await partyNow(venue.location.id, party);
    expect(after.members.map((m) => m.calendar_name).sort()).toEqual(['Sim 2', 'Sim 3']);
    expect(after.members.every((m) => !m.out_of_service)).toBe(true);
  });

  it('flags the host seat, which cannot leave its own party, on the parties list', async () => {
    const venue = await createVenue(t, { seats: 2 });
    const [sim1, sim2] = venue.seats.map((s) => s.id);
    const party = await partyOf(sim1, [sim2], 'Ann’s Party');
    const now = slotAround(new Date(), zone);
    const res = await call('POST', '/api/planner/out_of_service', {
      calendar: sim1,
      from: now,
      to: nextSlot(now),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().parties).toEqual([
      { party, party_name: 'Ann’s Party', is_host: true, to_calendar: null, to_calendar_name: null },
    ]);
    expect(res.json().detail).toBe(
      'Sim 1 is out of service: 0 moved, 0 cancelled. Ann’s Party still lists it: swap the seat on the Parties screen.',
    );
    const after = await partyNow(venue.location.id, party);
    expect(after.members.map((m) => [m.calendar_name, m.out_of_service])).toEqual([
      ['Sim 1', true],
      ['Sim 2', false],
    ]);
  });
});
