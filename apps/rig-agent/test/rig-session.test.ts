// The booked session on the rig (issue 42, decision 0120): a real Paddock server, the agent with
// the fake sim, and the session clock on a clock the test moves: the automatic start checks the
// booking in, the 5- and 1-minute warnings, the same customer's next half-hour keeps the sim
// running, the booked end ends it even with the network cut, and the report follows once back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { createVenue } from '../../server/src/test/booking-factories';
import { createUser } from '../../server/src/test/factories';
import { reservations } from '../../server/src/db/schema/booking';
import { settings } from '../../server/src/db/schema/content';
import { auditEvents } from '../../server/src/db/schema/audit';
import { cars, tracks } from '../../server/src/db/schema/laps';
import { ManualClock } from '../src/session-clock';
import { followSessions } from '../src/follow-sessions';
import { RigHarness, until } from './harness';

const h = new RigHarness();
const HALF = 30 * 60_000;
const MIN = 60_000;
const halfHour = (n = 0) => Math.floor(Date.now() / HALF) * HALF + n * HALF;
const keyOf = (ms: number) =>
  DateTime.fromMillis(ms, { zone: 'America/Los_Angeles' }).toFormat("yyyy-MM-dd'T'HH:mm");

beforeAll(async () => {
  await h.start({
    tmpPrefix: 'paddock-rig-session-',
    permissions: ['leaderboards.can_manage_race_events', 'rigs.change_rig'],
  });
});
afterEach(h.runCleanups);
afterAll(h.stop);

describe('the booked session on the rig', () => {
  it('starts automatically, warns at 5 and 1 minutes, runs on through the same customer’s next half-hour and ends at the booked end, offline too', async () => {
    const venue = await createVenue(h.t, { seats: 1 });
    const seat = venue.seats[0].id;
    const [{ id: track }] = await h.t.db
      .insert(tracks)
      .values({ sim: 'ac', key: 'ks_vallelunga', layout: 'club', name: 'Vallelunga' })
      .returning({ id: tracks.id });
    const [{ id: car }] = await h.t.db
      .insert(cars)
      .values({ sim: 'ac', key: 'ks_abarth500', name: 'Abarth 500' })
      .returning({ id: cars.id });
    const eventId = (await h.api('GET', `/api/calendars/${seat}`)).json().event;
    const edited = await h.api('PATCH', `/api/races/events/${eventId}`, {
      track,
      cars: [car],
      sessions: [{ type: 'PRACTICE', duration: 60 }],
    });
    expect(edited.statusCode).toBe(200);
    await h.t.db.insert(settings).values({ key: 'rig_start_mode', value: 'automatic' });
    const ada = await createUser(h.t, { firstName: 'Ada', lastName: 'Quick' });
    const [first] = await h.t.db
      .insert(reservations)
      .values(
        [0, 1].map((n) => ({
          calendarId: seat,
          slot: keyOf(halfHour(n)),
          time: new Date(halfHour(n)),
          userId: ada.id,
          paid: true,
        })),
      )
      .returning({ id: reservations.id });

    const net = await h.network();
    const r = await h.rig(seat, net.url);
    const clock = new ManualClock(halfHour(0) + MIN);
    const warnings: string[] = [];
    const follower = followSessions(r.agent, {
      server: net.url,
      key: r.config.key,
      log: () => {},
      warn: (text) => warnings.push(text),
      clock,
    });
    const sessionClock = follower.clock;
    h.cleanups.push(() => follower.stop());

    // At the booking's start: the sim starts and the booking is checked in.
    await follower.refresh();
    await sessionClock.idle();
    await until(() => r.agent.state === 'launched', 15_000, 'the sim to start');
    const [row] = await h.t.db
      .select({ attendance: reservations.attendance })
      .from(reservations)
      .where(eq(reservations.id, first.id));
    expect(row.attendance).toBe('checked_in');

    // The end of the first half-hour: the same customer has the next, the sim runs on.
    clock.advanceTo(halfHour(1) + 1000);
    await sessionClock.idle();
    expect(r.agent.state).toBe('launched');
    expect(warnings).toEqual([]);

    clock.advanceTo(halfHour(2) - 5 * MIN);
    await sessionClock.idle();
    expect(warnings).toEqual(['5 minutes left']);
    clock.advanceTo(halfHour(2) - MIN);
    await sessionClock.idle();
    expect(warnings).toEqual(['5 minutes left', '1 minute left']);

    // The venue's network drops: the booked end still ends the sim, on time.
    await net.cut();
    await follower.refresh();
    clock.advanceTo(halfHour(2));
    await sessionClock.idle();
    await r.agent.idle();
    await until(() => r.agent.state === 'exited', 15_000, 'the sim to end');
    expect(sessionClock.pending).toMatchObject([
      { reservation: first.id, event: 'ended', offline: true },
    ]);

    // Back online: the agent tells Paddock what it did.
    await net.restore();
    await follower.refresh();
    await sessionClock.idle();
    expect(sessionClock.pending).toEqual([]);
    const reports = await h.t.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'rig_session.report'), eq(auditEvents.targetId, first.id)));
    expect(reports.map((a) => a.after)).toEqual([
      expect.objectContaining({ event: 'ended', offline: true }),
    ]);
  });

  it('in customer mode waits for Start on the rig screen; a session taken off the seat ends the sim', async () => {
    const venue = await createVenue(h.t, { seats: 1 });
    const seat = venue.seats[0].id;
    const [track] = await h.t.db.select({ id: tracks.id }).from(tracks).limit(1);
    const [car] = await h.t.db.select({ id: cars.id }).from(cars).limit(1);
    const eventId = (await h.api('GET', `/api/calendars/${seat}`)).json().event;
    await h.api('PATCH', `/api/races/events/${eventId}`, {
      track: track.id,
      cars: [car.id],
      sessions: [{ type: 'PRACTICE', duration: 60 }],
    });
    await h.t.db
      .insert(settings)
      .values({ key: 'rig_start_mode', value: 'customer' })
      .onConflictDoUpdate({ target: settings.key, set: { value: 'customer' } });
    const bob = await createUser(h.t);
    const [booking] = await h.t.db
      .insert(reservations)
      .values({
        calendarId: seat,
        slot: keyOf(halfHour(0)),
        time: new Date(halfHour(0)),
        userId: bob.id,
        paid: false,
      })
      .returning({ id: reservations.id });
    const r = await h.rig(seat, h.url);
    const follower = followSessions(r.agent, {
      server: h.url,
      key: r.config.key,
      log: () => {},
      clock: new ManualClock(halfHour(0) + 2 * MIN),
    });
    h.cleanups.push(() => follower.stop());
    await follower.refresh();
    await follower.clock.idle();
    await r.agent.idle();
    expect(r.agent.state).not.toBe('launched');

    // Bob presses Start on the rig screen (the same call, with the rig's key).
    const start = await fetch(`${h.url}/api/rig_session/start`, {
      method: 'POST',
      headers: { authorization: `Rig ${r.config.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reservation: booking.id }),
    });
    expect(start.status).toBe(200);
    await follower.refresh();
    await follower.clock.idle();
    await until(() => r.agent.state === 'launched', 15_000, 'the sim to start');

    // Staff take the booking off the seat (moved, cancelled, out of service): the sim ends.
    await h.t.db
      .update(reservations)
      .set({ cancelledAt: new Date() })
      .where(eq(reservations.id, booking.id));
    await follower.refresh();
    await follower.clock.idle();
    await r.agent.idle();
    await until(() => r.agent.state === 'exited', 15_000, 'the sim to end');
  });
});
