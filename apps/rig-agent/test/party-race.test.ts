// End to end (issue 13): a party of three seats races on the Assetto Corsa dedicated server.
// A real Paddock (with AC_SERVER_PATH set, so it starts a server for the party by itself), three
// real rig agents with the fake sim as their launch command, and the fake acServer reading the
// files Paddock wrote and replaying the Monza race over the real UDP plugin protocol. The
// network between one rig and Paddock is cut mid-race; the laps that rig kept arrive once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import {
  startFakeAcServer,
  type FakeAcServerHandle,
} from '@paddock/ac-protocol/fake-acserver/fake-acserver';
import { createUser } from '../../server/src/test/factories';
import { createVenue } from '../../server/src/test/booking-factories';
import { reservations } from '../../server/src/db/schema/booking';
import { cars, laps, tracks } from '../../server/src/db/schema/laps';
import { RigHarness, alive, until } from './harness';

const here = path.dirname(fileURLToPath(import.meta.url));
const MONZA = fs.readFileSync(
  path.join(here, '../../../packages/ac-protocol/src/test-fixtures/server-race-monza.json'),
  'utf8',
);
/** Read by hand from the fixture: cars 0, 2 and 4 drive eight laps each; their best laps. */
const BEST = { car0: 100_607, car2: 100_594, car4: 99_369 };

const h = new RigHarness();
const { api, network, rig, signal, watch } = h;
let fake: FakeAcServerHandle | undefined;

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const free = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return free;
}

beforeAll(async () => {
  await h.start({
    tmpPrefix: 'paddock-party-race-',
    permissions: [
      'leaderboards.can_manage_race_events',
      'leaderboards.change_board',
      'rigs.change_rig',
    ],
    // The stand-in acServer binary: notes each start and its stop, and runs until stopped. The
    // fake acServer (below) then reads the very files it was started with.
    env: async (tmp) => {
      const standIn = path.join(tmp, 'acServer');
      fs.writeFileSync(
        standIn,
        [
          '#!/bin/sh',
          `echo "$*" >> "${tmp}/started"`,
          `trap 'echo stopped >> "${tmp}/stopped"; exit 0' TERM`,
          'while :; do sleep 0.1; done',
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      return {
        AC_SERVER_PATH: standIn,
        AC_PLUGIN_PORT: '0',
        AC_SERVER_PLUGIN_PORT: String(await freeUdpPort()),
      };
    },
  });
});

afterAll(async () => {
  await h.runCleanups();
  await fake?.stop();
  await h.stop();
});

describe('a party race, end to end', () => {
  it('three rigs start on the party server, the replayed laps reach the booked customers and the board, and a cut rig delivers its laps once', async () => {
    const venue = await createVenue(h.t, { seats: 3 });
    const seats = venue.seats.map((s) => s.id);
    const [track] = await h.t.db
      .insert(tracks)
      .values({ sim: 'ac', key: 'monza', layout: '', name: 'Monza' })
      .returning();
    const [lotus] = await h.t.db
      .insert(cars)
      .values({ sim: 'ac', key: 'lotus_exos_125', name: 'Lotus Exos 125' })
      .returning();
    const board = (
      await api('POST', '/api/boards', { name: 'Monza', calculation: 'TIME', track: track.id })
    ).json() as { id: number };
    const results = async () =>
      (
        await h.t.app.inject({ method: 'GET', url: `/api/boards/${board.id}/results?count=10` })
      ).json() as Array<{ user: number; rank: number; hms: string }>;

    // Three customers booked on the three seats now.
    const [ann, bob, cy] = [await createUser(h.t), await createUser(h.t), await createUser(h.t)];
    for (const [i, who] of [ann, bob, cy].entries())
      await h.t.db.insert(reservations).values({
        calendarId: seats[i],
        slot: 'now',
        time: new Date(Date.now() - 10 * 60_000),
        userId: who.id,
        paid: true,
      });

    // Seat 1 hosts a party, seats 2 and 3 join; a 10-lap race at Monza in the Lotus.
    const party = (await api('POST', '/api/races/parties/host', { calendar: seats[0] })).json() as {
      id: number;
      host_event: number;
    };
    for (const seat of seats.slice(1))
      expect(
        (await api('POST', '/api/races/parties/members', { party: party.id, calendar: seat }))
          .statusCode,
      ).toBe(201);
    const eventId = party.host_event;
    const edited = await api('PATCH', `/api/races/events/${eventId}`, {
      track: track.id,
      cars: [lotus.id],
      sessions: [{ type: 'RACE', duration: 10, duration_is_laps: true }],
      entries: seats.map((calendar) => ({ calendar, car: lotus.id })),
    });
    expect(edited.statusCode).toBe(200);

    // Two rigs are on before the start; the second goes through a network that will be cut.
    const cable = await network();
    const rigs = [await rig(seats[0], h.url), await rig(seats[1], cable.url)];
    await until(() => rigs.every((r) => r.agent.eventId === eventId), 10_000, 'party event');
    const staffView = await watch(eventId);
    const feed = await h.changeFeed();
    expect(h.t.app.acServers.run(party.id)).toBeUndefined();

    // Staff start the session: Paddock starts the party's acServer by itself, then the seats
    // (told where to join first) write race.ini with [REMOTE] and launch.
    await signal(eventId, { signal: 'SESSION_START' });
    const status = h.t.app.acServers.status(party.id);
    expect(status).toMatchObject({ running: true, party: party.id, game_port: 9600 });
    const startedWith = fs.readFileSync(path.join(h.tmp, 'started'), 'utf8');
    expect(startedWith).toBe(
      `-c ${status.folder}/server_cfg.ini -e ${status.folder}/entry_list.ini\n`,
    );
    for (const [i, r] of rigs.entries()) {
      await until(() => staffView.entry(seats[i])?.state === 'running', 15_000, `seat ${i} runs`);
      await until(() => r.starts().length === 1, 5000, `sim ${i} to start`);
    }

    // The third rig connects after the server started: it hears where to join on connect, and
    // a second SESSION_START starts it, without a second server or a second sim elsewhere.
    rigs.push(await rig(seats[2], h.url));
    await until(
      () => rigs[2].log.includes(`party server: 127.0.0.1:${status.game_port}`),
      10_000,
      'the late rig to hear the server',
    );
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => staffView.entry(seats[2])?.state === 'running', 15_000, 'seat 2 runs');
    await until(() => rigs[2].starts().length === 1, 5000, 'the third sim to start');
    for (const r of rigs) await r.agent.idle();
    expect(rigs.map((r) => r.starts().length)).toEqual([1, 1, 1]);
    expect(fs.readFileSync(path.join(h.tmp, 'started'), 'utf8').trim().split('\n')).toHaveLength(1);
    for (const r of rigs)
      expect(r.remote()).toEqual({
        active: '1',
        ip: '127.0.0.1',
        port: String(status.game_port),
        password: status.password,
        car: 'lotus_exos_125',
      });

    // Mid-race the second rig's network goes. The fake acServer, started on the files Paddock
    // wrote, replays Monza: the fixture's cars 0, 2 and 4 drive seats 1, 2 and 3.
    await cable.cut();
    await until(() => !rigs[1].agent.connected, 5000, 'the rig to see the cut');
    fake = await startFakeAcServer({
      serverCfg: fs.readFileSync(path.join(status.folder!, 'server_cfg.ini'), 'utf8'),
      entryList: fs.readFileSync(path.join(status.folder!, 'entry_list.ini'), 'utf8'),
      replay: {
        resultsJson: MONZA,
        speed: 2000,
        carIds: { 0: 0, 2: 1, 4: 2 },
        resultsDir: path.join(h.tmp, 'results'),
      },
    });
    // Meanwhile the cut rig's sim records two laps of its own (an in-game app's laps file):
    // they wait in its queue.
    const ownLap = (lapMs: number) => ({
      sim: 'ac',
      track: 'monza',
      layout: '',
      car: 'lotus_exos_125',
      lap_ms: lapMs,
      recorded_at: new Date().toISOString(),
    });
    fs.appendFileSync(rigs[1].config.lapsFile!, `${JSON.stringify(ownLap(98_765))}\n`);
    fs.appendFileSync(rigs[1].config.lapsFile!, `${JSON.stringify(ownLap(101_234))}\n`);
    await until(() => rigs[1].agent.queue.list('lap').length === 2, 5000, 'the queued laps');

    await fake.replayDone;
    const run = h.t.app.acServers.run(party.id)!;
    await until(
      async () => {
        await run.queue;
        return run.lapsStored === 24 && run.imports.length === 1;
      },
      20_000,
      'the live laps and the results import',
    );
    // END_SESSION's results file added the other cars' laps, not the 24 that came live again.
    expect(run.imports[0]).toMatchObject({ laps_added: 82 - 24, laps_skipped: 24 });

    const lapsOf = async (userId: number) =>
      h.t.db
        .select({ ms: laps.lapMs, calendar: laps.calendarId, key: laps.sourceKey })
        .from(laps)
        .where(eq(laps.userId, userId));
    const before = await Promise.all([ann, bob, cy].map((u) => lapsOf(u.id)));
    expect(before.map((l) => l.length)).toEqual([8, 8, 8]);
    expect(before.map((l) => Math.min(...l.map((x) => x.ms)))).toEqual([
      BEST.car0,
      BEST.car2,
      BEST.car4,
    ]);
    expect(before.map((l) => [...new Set(l.map((x) => x.calendar))])).toEqual(
      seats.map((s) => [s]),
    );
    // The board got there through the change feed.
    await until(() => feed.some((c) => c.topic === 'boards'), 10_000, 'a boards change');
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, cy.id, '1:39.369'],
      [2, bob.id, '1:40.594'],
      [3, ann.id, '1:40.607'],
    ]);
    // The cut rig's laps are still only on the rig.
    expect(rigs[1].agent.queue.list('lap').map((i) => i.lap.lap_ms)).toEqual([98_765, 101_234]);
    const seen = feed.length;

    // The network comes back: the rig reconnects, the queue empties, each lap stored once, on
    // Bob, and the board hears it.
    await cable.restore();
    await until(() => rigs[1].agent.queue.size === 0, 15_000, 'the queue to empty');
    await until(() => rigs[1].agent.connected, 15_000, 'the rig to reconnect');
    const after = await lapsOf(bob.id);
    expect(after).toHaveLength(10);
    const fromRig = after.filter((l) => l.key.startsWith('rig:'));
    expect(fromRig.map((l) => [l.ms, l.calendar]).sort()).toEqual([
      [101_234, seats[1]],
      [98_765, seats[1]],
    ]);
    await until(() => feed.slice(seen).some((c) => c.topic === 'boards'), 10_000, 'a new change');
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, bob.id, '1:38.765'],
      [2, cy.id, '1:39.369'],
      [3, ann.id, '1:40.607'],
    ]);
    const stored = await h.t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from laps where calendar_id = ${seats[1]}`,
    );
    expect(stored.rows[0].n).toBe(10);

    // SESSION_EXIT: every sim ends, every seat says so, and the party's server stops.
    const pids = rigs.map((r) => r.starts()[0].pid);
    await signal(eventId, { signal: 'SESSION_EXIT' });
    for (const [i, pid] of pids.entries()) {
      await until(() => !alive(pid), 10_000, `sim ${i} to end`);
      await until(() => staffView.entry(seats[i])?.state === 'none', 10_000, `seat ${i} exits`);
    }
    expect(h.t.app.acServers.run(party.id)).toBeUndefined();
    expect(fs.readFileSync(path.join(h.tmp, 'stopped'), 'utf8')).toBe('stopped\n');
  });
});
