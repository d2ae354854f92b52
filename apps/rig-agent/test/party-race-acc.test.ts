// End to end (issue 31): a party of three ACC seats. A real Paddock (ACC_SERVER_PATH set, so
// SESSION_START starts accServer for the party by itself), three real rig agents with the ACC
// adapter and a fake game as their launch command, and the fake ACC server reading the cfg/
// files Paddock wrote and driving laps over the real broadcasting protocol. One lap is lost on
// the wire: the results file brings it back, once, on the right customer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { startFakeAccServer, type FakeAccServer } from '@paddock/ac-protocol/acc/fake-accserver';
import { createUser } from '../../server/src/test/factories';
import { createVenue } from '../../server/src/test/booking-factories';
import { reservations } from '../../server/src/db/schema/booking';
import { cars, laps, tracks } from '../../server/src/db/schema/laps';
import { RigHarness, alive, until } from './harness';

const h = new RigHarness();
const { api, rig, signal, watch } = h;
let fake: FakeAccServer | undefined;
let broadcastPort = 0;

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const free = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return free;
}

beforeAll(async () => {
  broadcastPort = await freeUdpPort();
  await h.start({
    tmpPrefix: 'paddock-acc-party-',
    permissions: [
      'leaderboards.can_manage_race_events',
      'leaderboards.change_board',
      'rigs.change_rig',
    ],
    // The stand-in accServer binary: notes its start and its stop, and runs until stopped.
    env: (tmp) => {
      const standIn = path.join(tmp, 'accServer');
      fs.writeFileSync(
        standIn,
        [
          '#!/bin/sh',
          `echo started >> "${tmp}/started"`,
          `trap 'echo stopped >> "${tmp}/stopped"; exit 0' TERM`,
          'while :; do sleep 0.1; done',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      return {
        ACC_SERVER_PATH: standIn,
        ACC_SERVER_HOST: '127.0.0.1',
        ACC_BROADCAST_PORT: String(broadcastPort),
        ACC_BROADCAST_PASSWORD: 'paddock',
      };
    },
  });
});

afterAll(async () => {
  await h.runCleanups();
  await fake?.stop();
  await h.stop();
});

describe('an ACC party race, end to end', () => {
  it('three ACC rigs join the party accServer, broadcast laps reach the booked customers and the board, a lost lap comes back from the results file once', async () => {
    const venue = await createVenue(h.t, { seats: 3 });
    const seats = venue.seats.map((s) => s.id);
    const [track] = await h.t.db
      .insert(tracks)
      .values({ sim: 'acc', key: 'spa', layout: '', name: 'Spa (ACC)' })
      .returning();
    const [ferrari] = await h.t.db
      .insert(cars)
      .values({ sim: 'acc', key: 'ferrari_488_gt3_evo', name: 'Ferrari 488 GT3 Evo' })
      .returning();
    const board = (
      await api('POST', '/api/boards', { name: 'Spa', calculation: 'TIME', track: track.id })
    ).json() as { id: number };
    const results = async () =>
      (
        await h.t.app.inject({ method: 'GET', url: `/api/boards/${board.id}/results?count=10` })
      ).json() as Array<{ user: number; rank: number; hms: string }>;

    const [ann, bob, cy] = [await createUser(h.t), await createUser(h.t), await createUser(h.t)];
    for (const [i, who] of [ann, bob, cy].entries())
      await h.t.db.insert(reservations).values({
        calendarId: seats[i],
        slot: 'now',
        time: new Date(Date.now() - 10 * 60_000),
        userId: who.id,
        paid: true,
      });

    const party = (await api('POST', '/api/races/parties/host', { calendar: seats[0] })).json() as {
      id: number;
      host_event: number;
    };
    for (const seat of seats.slice(1))
      await api('POST', '/api/races/parties/members', { party: party.id, calendar: seat });
    const eventId = party.host_event;
    const edited = await api('PATCH', `/api/races/events/${eventId}`, {
      track: track.id,
      cars: [ferrari.id],
      sessions: [{ type: 'RACE', duration: 20, duration_is_laps: false }],
      entries: seats.map((calendar) => ({ calendar, car: ferrari.id })),
    });
    expect(edited.statusCode).toBe(200);

    const rigs: Array<Awaited<ReturnType<typeof rig>>> = [];
    for (const seat of seats) rigs.push(await rig(seat, h.url, undefined, 'acc'));
    await until(() => rigs.every((r) => r.agent.eventId === eventId), 10_000, 'party event');
    const staffView = await watch(eventId);
    const feed = await h.changeFeed();

    // SESSION_START: Paddock starts accServer (the track is ACC's), tells the seats where to
    // join; each rig writes serverList.json and starts its game through a launcher that exits
    // (as steam.exe -applaunch does): the seat runs while the game does.
    await signal(eventId, { signal: 'SESSION_START' });
    expect(h.t.app.acServers.status(party.id)).toMatchObject({ running: true, game_port: 9232 });
    expect(h.t.app.acServers.run(party.id)).toBeUndefined(); // not an acServer
    for (const [i, r] of rigs.entries()) {
      await until(() => staffView.entry(seats[i])?.state === 'running', 15_000, `seat ${i} runs`);
      await until(() => r.starts().length === 1, 5000, `game ${i} to start`);
      // The handbook's one key: the game scans that host (LAN discovery, UDP 8999).
      expect(r.starts()[0].server).toEqual({ leagueServerIP: '127.0.0.1' });
    }
    expect(fs.readFileSync(path.join(h.tmp, 'started'), 'utf8')).toBe('started\n');

    // The fake ACC server runs the cfg/ Paddock wrote beside the binary, and answers broadcasting.
    fake = await startFakeAccServer({
      cfgDir: path.join(h.tmp, 'cfg'),
      broadcastPort,
      connectionPassword: 'paddock',
      resultsDir: path.join(h.tmp, 'results'),
    });
    expect(fake.config).toMatchObject({ track: 'spa', lanDiscovery: 1, maxConnections: 5 });
    // The launchers are gone, the games run, and the seats say so.
    expect(rigs.map((r) => alive(r.starts()[0].pid))).toEqual([true, true, true]);
    expect(seats.map((s) => staffView.entry(s)?.state)).toEqual(['running', 'running', 'running']);
    const run = h.t.app.acServers.acc.run(party.id)!;
    await until(() => run.carSeat.size === 3, 15_000, 'the entry list');

    await fake.lap(1, 140_100);
    await fake.lap(2, 139_500);
    await fake.lap(3, 138_900, true); // invalid: kept off the board
    fake.drop(2); // Bob's second lap is lost on the wire
    await fake.lap(2, 138_000);
    await fake.lap(3, 139_900);
    await until(
      async () => {
        await run.queue;
        return run.lapsStored === 4;
      },
      10_000,
      'the live laps',
    );
    await until(() => feed.some((c) => c.topic === 'boards'), 10_000, 'a boards change');
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, bob.id, '2:19.500'],
      [2, cy.id, '2:19.900'],
      [3, ann.id, '2:20.100'],
    ]);
    const seen = feed.length;

    // The session is over: its results file is imported; Bob's lost lap is added, once.
    await fake.endSession();
    await until(
      async () => {
        await run.queue;
        return run.imports.length === 1;
      },
      10_000,
      'the results import',
    );
    expect(run.imports[0]).toMatchObject({ laps_added: 1, laps_skipped: 4 });
    await until(() => feed.slice(seen).some((c) => c.topic === 'boards'), 10_000, 'a new change');
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, bob.id, '2:18.000'],
      [2, cy.id, '2:19.900'],
      [3, ann.id, '2:20.100'],
    ]);
    const lapsOf = async (userId: number) =>
      (
        await h.t.db
          .select({ ms: laps.lapMs, calendar: laps.calendarId })
          .from(laps)
          .where(eq(laps.userId, userId))
      ).sort((a, b) => a.ms - b.ms);
    expect(await lapsOf(bob.id)).toEqual([
      { ms: 138_000, calendar: seats[1] },
      { ms: 139_500, calendar: seats[1] },
    ]);
    expect((await lapsOf(ann.id)).map((l) => l.ms)).toEqual([140_100]);
    expect((await lapsOf(cy.id)).map((l) => l.ms)).toEqual([138_900, 139_900]);
    const stored = await h.t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from laps where source_key like ${`accsrv:${party.id}:%`}`,
    );
    expect(stored.rows[0].n).toBe(5);

    // SESSION_EXIT: every game ends and accServer stops.
    const pids = rigs.map((r) => r.starts()[0].pid);
    await signal(eventId, { signal: 'SESSION_EXIT' });
    for (const [i, pid] of pids.entries()) {
      await until(() => !alive(pid), 10_000, `game ${i} to end`);
      await until(() => staffView.entry(seats[i])?.state === 'none', 10_000, `seat ${i} exits`);
    }
    expect(h.t.app.acServers.acc.run(party.id)).toBeUndefined();
    expect(fs.readFileSync(path.join(h.tmp, 'stopped'), 'utf8')).toBe('stopped\n');
  });
});
