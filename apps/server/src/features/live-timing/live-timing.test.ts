import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  startFakeAcServer,
  type FakeAcServerHandle,
} from '@paddock/ac-protocol/fake-acserver/fake-acserver';
import { startFakeAccServer } from '@paddock/ac-protocol/acc/fake-accserver';
import { playAcFeed, readFeed, serveAccFeed } from '@paddock/ac-protocol/feed-recording';
import type { TimingAnswer } from '@paddock/contract/live-timing';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { listen } from '../../test/event-stream';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { cars, raceResults, raceSessions, tracks } from '../../db/schema/laps';

const fixture = path.join(
  import.meta.dirname,
  '../../../../../packages/ac-protocol/src/test-fixtures/server-race-monza.json',
);
/** The fake AC race below as the server heard it (made by this file with KEEP_FEED set). */
const FEEDS = path.join(import.meta.dirname, '../../test/fixtures/live-feeds');
const AC_FEED = path.join(FEEDS, 'ac-race-monza.feed.jsonl');
const ACC_FEED = path.join(FEEDS, 'acc-race-monza.feed.jsonl');

let t: TestApp;
let tmp: string;
let staff: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
let fake: FakeAcServerHandle | undefined;
let broadcastPort: number;

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

async function waitFor<T>(check: () => T | Promise<T>, what: string): Promise<NonNullable<T>> {
  const end = Date.now() + 15_000;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-timing-'));
  const standIn = path.join(tmp, 'acServer');
  fs.writeFileSync(standIn, "#!/bin/sh\ntrap 'exit 0' TERM\nwhile :; do sleep 0.1; done\n", {
    mode: 0o755,
  });
  fs.mkdirSync(path.join(tmp, 'acc'));
  fs.copyFileSync(standIn, path.join(tmp, 'acc', 'accServer'));
  broadcastPort = await freeUdpPort();
  t = await createTestApp({
    ACC_SERVER_PATH: path.join(tmp, 'acc', 'accServer'),
    ACC_BROADCAST_PORT: String(broadcastPort),
    ACC_BROADCAST_PASSWORD: 'venue-secret',
    AC_SERVER_PATH: standIn,
    AC_PLUGIN_PORT: '0',
    AC_SERVER_PLUGIN_PORT: String(await freeUdpPort()),
    FEED_RECORD_DIR: path.join(tmp, 'feeds'),
  });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events'],
  });
  venue = await createVenue(t, { seats: 3 });
});
afterAll(async () => {
  await fake?.stop();
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });

describe('the live timing tower of an AC race', () => {
  it('follows the feed lap by lap on every instance, freezes at the flag, and a recording of it plays back to the same tower', async () => {
    const [track] = await t.db
      .insert(tracks)
      .values({ sim: 'ac', key: 'monza', layout: '', name: 'Monza' })
      .returning();
    const [lotus] = await t.db
      .insert(cars)
      .values({ sim: 'ac', key: 'lotus_exos_125', name: 'Lotus Exos 125' })
      .returning();
    const people = [await createUser(t), await createUser(t), await createUser(t)];
    for (const [i, name] of ['Ana Quick', 'Ben Steady', 'Cy Late'].entries())
      await t.db.update(users).set({ racerName: name }).where(eq(users.id, people[i].id));
    for (const [i, who] of people.entries())
      await t.db.insert(reservations).values({
        calendarId: venue.seats[i].id,
        slot: 'now',
        time: new Date(Date.now() - 10 * 60_000),
        userId: who.id,
        paid: true,
      });
    const party = (
      await call('POST', '/api/races/parties/host', { calendar: venue.seats[0].id })
    ).json() as { id: number; host_event: number };
    for (const seat of venue.seats.slice(1))
      await call('POST', '/api/races/parties/members', { party: party.id, calendar: seat.id });
    const eventId = party.host_event;
    expect(
      (
        await call('PATCH', `/api/races/events/${eventId}`, {
          track: track.id,
          cars: [lotus.id],
          sessions: [{ type: 'RACE', duration: 8, duration_is_laps: true }],
          entries: venue.seats.map((s) => ({ calendar: s.id, car: lotus.id })),
        })
      ).statusCode,
    ).toBe(200);

    // Anyone reads the tower; none yet.
    const tower = async (app = t.app) =>
      (await app.inject({ method: 'GET', url: `/api/races/events/${eventId}/timing` })).json()
        .tower as TimingAnswer['tower'];
    expect(await tower()).toBeNull();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/races/events/999999/timing' })).statusCode,
    ).toBe(404);

    // Another instance's stream hears each new tower.
    const sibling = await t.sibling();
    await sibling.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = sibling.app.server.address() as { port: number };
    const stream = await listen(`http://127.0.0.1:${port}/api/events?topics=timing`);

    const status = (
      await call('POST', `/api/races/events/${eventId}/server`, { command: 'start' })
    ).json() as { folder: string };
    // Before any lap: the booked customers by name, in entry order.
    await t.app.liveTiming.settled(eventId);
    expect((await tower(sibling.app))?.rows.map((r) => [r.position, r.driver, r.car])).toEqual([
      [1, 'Ana Quick', 'Lotus Exos 125'],
      [2, 'Ben Steady', 'Lotus Exos 125'],
      [3, 'Cy Late', 'Lotus Exos 125'],
    ]);

    // The fake acServer replays the Monza race (cars 0, 2, 4 on seats 1-3), eight laps each.
    const serverCfg = fs.readFileSync(path.join(status.folder, 'server_cfg.ini'), 'utf8');
    const entryList = fs.readFileSync(path.join(status.folder, 'entry_list.ini'), 'utf8');
    fake = await startFakeAcServer({
      serverCfg,
      entryList,
      replay: {
        resultsJson: fs.readFileSync(fixture, 'utf8'),
        speed: 5000,
        carIds: { 0: 0, 2: 1, 4: 2 },
        resultsDir: path.join(tmp, 'written'),
      },
    });
    await fake.replayDone;
    const run = t.app.acServers.run(party.id)!;
    await waitFor(async () => {
      await run.queue;
      return run.imports.length === 1;
    }, 'the end of the session');
    await t.app.liveTiming.settled(eventId);

    // The third seat's car ran its eighth lap first: the flag. The others finish on their next
    // crossing, with seven (the fake's leaderboard keeps counting the laps they drive after it).
    const final = await tower(sibling.app);
    expect(final?.rows.map((r) => [r.number, r.driver, r.laps])).toEqual([
      [3, 'Cy Late', 8],
      [1, 'Ana Quick', 7],
      [2, 'Ben Steady', 7],
    ]);
    expect(final).toMatchObject({ final: true, session: { flag: 'chequered', laps: 8 } });
    expect(final?.rows.every((r) => r.status === 'finished')).toBe(true);
    expect(final?.fastest_lap?.driver).toBe('Cy Late');
    await waitFor(() => stream.events.some((e) => e.data.id === eventId), 'the sibling to hear');
    // The results file came after the flag: the session is stored once, the file's result.
    await run.queue;
    const sessions = await t.db.select({ key: raceSessions.sessionKey }).from(raceSessions);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].key).not.toMatch(/^live:/);
    expect(stream.events.every((e) => e.data.topic === 'timing')).toBe(true);
    stream.close();
    await sibling.close();

    // The recording of that feed, played into a new run of the party's server, gives the same
    // tower (the race's times are the laps', not the clock's: any speed gives the same).
    await call('POST', `/api/races/events/${eventId}/server`, { command: 'stop' });
    await fake.stop();
    fake = undefined;
    const [recorded] = fs.readdirSync(path.join(tmp, 'feeds'));
    const recording = readFeed(path.join(tmp, 'feeds', recorded));
    expect(recording.header.sim).toBe('ac');
    if (process.env.KEEP_FEED) fs.copyFileSync(path.join(tmp, 'feeds', recorded), AC_FEED);
    const again = (
      await call('POST', `/api/races/events/${eventId}/server`, { command: 'start' })
    ).json() as { plugin_port: number };
    await playAcFeed(recording, { host: '127.0.0.1', port: again.plugin_port }, { speed: 1000 });
    const replayed = t.app.acServers.run(party.id)!;
    await waitFor(() => t.app.liveTiming.tower(eventId)?.final, 'the replayed flag');
    await replayed.queue;
    await t.app.liveTiming.settled(eventId);
    const strip = (x: TimingAnswer['tower']) => x && { ...x, at: '' };
    expect(strip(await tower())).toEqual(strip(final));
    // The replay's file is the same session: still one result, the file's.
    await waitFor(async () => {
      await replayed.queue;
      return replayed.imports.length === 1;
    }, 'the replayed session to end');
    const after = await t.db.select({ key: raceSessions.sessionKey }).from(raceSessions);
    expect(after).toEqual(sessions);
    await call('POST', `/api/races/events/${eventId}/server`, { command: 'stop' });
  });
});

describe('the live timing tower of an ACC race', () => {
  it('follows the broadcasting feed, freezes when the session ends, and its recording plays back to the same tower', async () => {
    const accVenue = await createVenue(t, { seats: 3 });
    const [track] = await t.db
      .insert(tracks)
      .values({ sim: 'acc', key: 'monza', layout: '', name: 'Monza (ACC)' })
      .returning();
    const [amg] = await t.db
      .insert(cars)
      .values({ sim: 'acc', key: 'mercedes_amg_gt3_evo', name: 'Mercedes-AMG GT3 Evo' })
      .returning();
    // Booked customers on the three seats, and a POINTS board on the track.
    const racers = [await createUser(t), await createUser(t), await createUser(t)];
    for (const [i, name] of ['Dee First', 'Eli Second', 'Flo Third'].entries()) {
      await t.db.update(users).set({ racerName: name }).where(eq(users.id, racers[i].id));
      await t.db.insert(reservations).values({
        calendarId: accVenue.seats[i].id,
        slot: 'now',
        time: new Date(Date.now() - 10 * 60_000),
        userId: racers[i].id,
        paid: true,
      });
    }
    const boardStaff = await createUser(t, {
      isStaff: true,
      permissions: ['leaderboards.change_board'],
    });
    const board = (
      await t.app.inject({
        method: 'POST',
        url: '/api/boards',
        headers: bearer(boardStaff.token),
        payload: { name: 'ACC cup', calculation: 'POINTS', track: track.id },
      })
    ).json() as { id: number };
    const standings = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/teams?board=${board.id}` })).json()
        .results as { name: string; points: number }[];
    expect(await standings()).toEqual([]);
    const party = (
      await call('POST', '/api/races/parties/host', { calendar: accVenue.seats[0].id })
    ).json() as { id: number; host_event: number };
    for (const seat of accVenue.seats.slice(1))
      await call('POST', '/api/races/parties/members', { party: party.id, calendar: seat.id });
    const eventId = party.host_event;
    await call('PATCH', `/api/races/events/${eventId}`, {
      track: track.id,
      cars: [amg.id],
      sessions: [{ type: 'RACE', duration: 20, duration_is_laps: false }],
      entries: accVenue.seats.map((s) => ({ calendar: s.id, car: amg.id })),
    });
    const feeds = fs.readdirSync(path.join(tmp, 'feeds'));
    const start = () => call('POST', `/api/races/events/${eventId}/server`, { command: 'start' });
    const stop = () => call('POST', `/api/races/events/${eventId}/server`, { command: 'stop' });
    expect((await start()).statusCode).toBe(200);
    const accFake = await startFakeAccServer({
      cfgDir: path.join(tmp, 'acc', 'cfg'),
      broadcastPort,
      connectionPassword: 'venue-secret',
    });
    const run = t.app.acServers.acc.run(party.id)!;
    await waitFor(() => run.carSeat.size === 3, 'the entry list');
    // Car 2 leads lap 1, car 1 passes it on lap 2, car 3 is slow.
    const laps: [number, number][] = [
      [2, 99_000],
      [1, 100_000],
      [3, 103_000],
      [1, 98_000],
      [2, 100_500],
      [3, 104_000],
    ];
    for (const [car, ms] of laps) await accFake.lap(car, ms);
    await waitFor(
      () => t.app.liveTiming.tower(eventId)?.rows.every((r) => r.laps === 2),
      'two laps each',
    );
    const live = t.app.liveTiming.tower(eventId)!;
    expect(live.rows.map((r) => [r.number, r.laps, r.gap])).toEqual([
      [1, 2, null],
      [2, 2, { ms: 1500, laps: 0 }],
      [3, 2, { ms: 9000, laps: 0 }],
    ]);
    expect(live.session).toMatchObject({ type: 'RACE', flag: 'green' });
    await accFake.endSession();
    await waitFor(async () => {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/api/races/events/${eventId}/timing`,
      });
      const tower = answer.json().tower as TimingAnswer['tower'];
      return tower?.final && tower.session_seq === 1 ? tower : null;
    }, 'the final tower');
    // No results file came (accServer wrote none): the live result is the session's, stored
    // once, and the POINTS board counts it at once.
    const stored = await waitFor(async () => {
      const rows = await t.db
        .select({
          key: raceSessions.sessionKey,
          position: raceResults.position,
          name: raceResults.driverName,
          laps: raceResults.laps,
        })
        .from(raceSessions)
        .innerJoin(raceResults, eq(raceResults.sessionId, raceSessions.id))
        .where(eq(raceSessions.trackId, track.id));
      return rows.length === 3 ? rows : null;
    }, 'the live result');
    expect(
      stored.sort((a, b) => a.position - b.position).map((r) => [r.position, r.name, r.laps]),
    ).toEqual([
      [1, 'Dee First', 2],
      [2, 'Eli Second', 2],
      [3, 'Flo Third', 2],
    ]);
    expect(new Set(stored.map((r) => r.key)).size).toBe(1);
    expect(stored[0].key).toMatch(/^live:acc:/);
    expect((await standings()).map((r) => r.name)).toEqual([
      'Dee First',
      'Eli Second',
      'Flo Third',
    ]);
    expect((await standings())[0].points).toBeGreaterThan((await standings())[1].points);
    await stop();
    await accFake.stop();

    // The recording, played where the game listens, gives the same tower.
    const recorded = fs.readdirSync(path.join(tmp, 'feeds')).find((f) => !feeds.includes(f))!;
    const recording = readFeed(path.join(tmp, 'feeds', recorded));
    expect(recording.header.sim).toBe('acc');
    if (process.env.KEEP_FEED) fs.copyFileSync(path.join(tmp, 'feeds', recorded), ACC_FEED);
    const player = await serveAccFeed(
      recording,
      { host: '127.0.0.1', port: broadcastPort },
      { speed: 1000 },
    );
    await start();
    await player.done;
    await waitFor(
      () => t.app.liveTiming.tower(eventId)?.rows.every((r) => r.laps === 0),
      'the replayed next session',
    );
    const replayedTower = (
      await t.app.inject({ method: 'GET', url: `/api/races/events/${eventId}/timing` })
    ).json().tower as TimingAnswer['tower'];
    await stop();
    await player.close();
    expect(replayedTower).toBeTruthy();
  });
});
