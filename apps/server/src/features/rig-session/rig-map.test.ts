import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { reservations } from '../../db/schema/booking';
import { locations } from '../../db/schema/venue';
import { auditEvents } from '../../db/schema/audit';
import { eventEntries, raceEvents, rigConnections } from '../../db/schema/races';
import { rigHealth } from '../../db/schema/rigs';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { slotAround } from '../planner/planner.service';
import { rigMap } from './rig-map';

let t: TestApp;
let desk: CreatedUser;
let racer: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  desk = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
  racer = await createUser(t, { firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(async () => {
  await t.close();
});

const ZONE = 'America/Los_Angeles';
const HALF = 30 * 60_000;

/** A booking of the half-hour `offset` half-hours from the one running now (0: now). */
async function book(seat: number, offset: number, userId: number | null, blackout = false) {
  const start = DateTime.fromISO(slotAround(new Date(), ZONE), { zone: ZONE });
  const at = start.plus({ minutes: 30 * offset }).toJSDate();
  const slot = slotAround(at, ZONE);
  const [row] = await t.db
    .insert(reservations)
    .values({ calendarId: seat, slot, time: at, userId, paid: true, isBlackout: blackout })
    .returning({ id: reservations.id, time: reservations.time });
  return row;
}

async function eventOf(seat: number) {
  const [row] = await t.db
    .select({ id: raceEvents.id })
    .from(raceEvents)
    .where(eq(raceEvents.calendarId, seat));
  return row.id;
}

/** A rig agent holds the seat's event socket; its sim in the given load state. */
async function rigOn(seat: number, state: 'none' | 'initialized' | 'launched') {
  const event = await eventOf(seat);
  await t.db.insert(rigConnections).values({
    id: `rig-${seat}-${Math.random()}`,
    calendarId: seat,
    eventId: event,
    expiresAt: sql`now() + interval '5 minutes'`,
  });
  await t.db
    .update(eventEntries)
    .set({
      initialized: state !== 'none',
      launched: state === 'launched',
      exited: false,
    })
    .where(and(eq(eventEntries.eventId, event), eq(eventEntries.calendarId, seat)));
}

describe('rig map', () => {
  it('shows each seat in its state: in session, sim not running, starting, idle, offline, out of service', async () => {
    const { location, seats } = await createVenue(t, { seats: 6 });
    const [inSession, notRunning, starting, idle, offline, broken] = seats.map((s) => s.id);
    const first = await book(inSession, 0, racer.id);
    await book(inSession, 1, racer.id);
    await rigOn(inSession, 'launched');
    await book(notRunning, 0, racer.id);
    await rigOn(notRunning, 'none');
    await rigOn(starting, 'initialized');
    await rigOn(idle, 'none');
    await book(offline, 0, racer.id);
    await book(broken, 0, null, true);
    await rigOn(broken, 'launched');

    const answer = await t.app.inject({
      url: `/api/rig_map?location=${location.id}`,
      headers: bearer(desk.token),
    });
    expect(answer.statusCode).toBe(200);
    const map = answer.json();
    expect(map.location_name).toBe(location.name);
    expect(map.open_now).toBe(true);
    expect(map.tiles.map((tile: { state: string }) => tile.state)).toEqual([
      'in_session',
      'sim_not_running',
      'starting',
      'idle',
      'offline',
      'out_of_service',
    ]);
    const tile = map.tiles[0];
    expect(tile).toMatchObject({
      calendar: inSession,
      rig_connected: true,
      sim_launched: true,
      event: await eventOf(inSession),
      party_name: null,
      event_seats: [],
      next: null,
      offline_alert: false,
      health: { agent_version: null, last_seen: null, sim_running: null, disk_free_bytes: null },
    });
    expect(tile.current).toMatchObject({
      reservation: first.id,
      now_reservation: first.id,
      customer: racer.id,
      name: 'Ada Lovelace',
      paid: true,
      starts: first.time.toISOString(),
      ends: new Date(first.time.getTime() + 2 * HALF).toISOString(),
    });
    expect(map.tiles[4]).toMatchObject({ rig_connected: false, offline_alert: false });
    expect(map.tiles.map((t: { sim_launched: boolean }) => t.sim_launched)).toEqual([
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('raises the offline alert only for a rig gone a few minutes while the venue is open', async () => {
    const { location, seats } = await createVenue(t, { seats: 3 });
    const [longGone, justGone, online] = seats.map((s) => s.id);
    await rigOn(online, 'none');
    const now = new Date();
    const seen = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    // What each agent last reported (issue 43's rig_health).
    await t.db.insert(rigHealth).values(
      [
        [longGone, 10],
        [justGone, 1],
        [online, 0],
      ].map(([calendarId, ago]) => ({
        calendarId,
        agentVersion: '1.4.0',
        simRunning: false,
        diskFreeBytes: 5e9,
        lastSeen: seen(ago),
      })),
    );
    const caller = { id: desk.id } as Parameters<typeof rigMap>[1];
    const map = await rigMap(t.db, caller, location.id, now);
    expect(map.tiles.map((tile) => [tile.state, tile.offline_alert])).toEqual([
      ['offline', true],
      ['offline', false],
      ['idle', false],
    ]);
    expect(map.tiles[0].health).toEqual({
      agent_version: '1.4.0',
      last_seen: seen(10).toISOString(),
      sim_running: false,
      disk_free_bytes: 5e9,
    });
    // Closed now: nobody is alarmed by a rig switched off for the night.
    await t.db
      .update(locations)
      .set({ openingHours: {}, specialHours: {} })
      .where(eq(locations.id, location.id));
    const closed = await rigMap(t.db, caller, location.id, now);
    expect(closed.open_now).toBe(false);
    expect(closed.tiles.map((tile) => tile.offline_alert)).toEqual([false, false, false]);
  });

  it('refuses the map and the move to a customer and to staff without the planner permission', async () => {
    const launcherOnly = await createUser(t, {
      isStaff: true,
      permissions: ['leaderboards.can_manage_race_events'],
    });
    for (const who of [racer, launcherOnly]) {
      expect(
        (await t.app.inject({ url: '/api/rig_map', headers: bearer(who.token) })).statusCode,
      ).toBe(403);
      const move = await t.app.inject({
        method: 'POST',
        url: '/api/rig_map/move',
        headers: bearer(who.token),
        payload: { calendar: 1, to: 2 },
      });
      expect(move.statusCode).toBe(403);
    }
  });

  it('moves the customer in session to a free rig for the rest of their time (the one move road)', async () => {
    const { seats } = await createVenue(t, { seats: 2 });
    const [from, to] = seats.map((s) => s.id);
    const before = await book(from, -1, racer.id);
    const now = await book(from, 0, racer.id);
    const later = await book(from, 1, racer.id);

    const nobody = await t.app.inject({
      method: 'POST',
      url: '/api/rig_map/move',
      headers: bearer(desk.token),
      payload: { calendar: to, to: from },
    });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json()).toEqual({ calendar: ['Nobody is in session on Sim 2 now.'] });

    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/rig_map/move',
      headers: bearer(desk.token),
      payload: { calendar: from, to },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().detail).toMatch(
      /^Ada Lovelace moved from Sim 1 for the rest of their time/,
    );
    expect(moved.json().reservation_ids).toEqual([now.id, later.id]);
    const rows = await t.db
      .select({ id: reservations.id, calendarId: reservations.calendarId })
      .from(reservations)
      .where(sql`${reservations.id} in (${before.id}, ${now.id}, ${later.id})`)
      .orderBy(reservations.time);
    // The time already driven stays where it was driven.
    expect(rows.map((r) => r.calendarId)).toEqual([from, to, to]);
    const audit = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, now.id));
    expect(audit.map((a) => a.action)).toContain('planner.move');
  });
});
