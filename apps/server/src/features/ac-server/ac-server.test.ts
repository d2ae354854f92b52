import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  startFakeAcServer,
  type FakeAcServerHandle,
} from '@paddock/ac-protocol/fake-acserver/fake-acserver';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { cars, laps, tracks } from '../../db/schema/laps';
import { AcServerLink } from './ac-server.service';
import WebSocket from 'ws';

const fixture = path.join(
  import.meta.dirname,
  '../../../../../packages/ac-protocol/src/test-fixtures/server-race-monza.json',
);
const resultsJson = fs.readFileSync(fixture, 'utf8');
/** Read by hand from the fixture: car 0 (Lwi), car 2 (blackbird0011), car 4, eight laps each. */
const LWI_GUID = '76561198078712985';
const BEST = { car0: 100_607, car2: 100_594, car4: 99_369 };

let t: TestApp;
let tmp: string;
let staff: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
let fake: FakeAcServerHandle | undefined;

/** A UDP port nobody uses now (the fake server's command port). */
async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-acserver-'));
  // The stand-in acServer: says how it was started, and when it was stopped.
  const standIn = path.join(tmp, 'acServer');
  fs.writeFileSync(
    standIn,
    [
      '#!/bin/sh',
      `echo "$PWD $*" > "${tmp}/started"`,
      `trap 'echo stopped > "${tmp}/stopped"; exit 0' TERM`,
      'while :; do sleep 0.1; done',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  t = await createTestApp({
    AC_SERVER_PATH: standIn,
    AC_PLUGIN_PORT: '0',
    AC_SERVER_PLUGIN_PORT: String(await freeUdpPort()),
  });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events', 'leaderboards.change_board'],
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

describe('a party on the AC dedicated server', () => {
  it('writes the configs, starts acServer, stores the live laps on the booked customers once, and stops with the party', async () => {
    // Monza and the Lotus of the fixture; a TIME board on that track.
    const [track] = await t.db
      .insert(tracks)
      .values({ sim: 'ac', key: 'monza', layout: '', name: 'Monza' })
      .returning();
    const [lotus] = await t.db
      .insert(cars)
      .values({ sim: 'ac', key: 'lotus_exos_125', name: 'Lotus Exos 125' })
      .returning();
    const board = (
      await call('POST', '/api/boards', { name: 'Monza', calculation: 'TIME', track: track.id })
    ).json();
    const results = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/boards/${board.id}/results?count=10` })
      ).json() as { user: number; rank: number; hms: string }[];
    expect(await results()).toEqual([]);

    // Three customers booked on the three seats now; Lwi has told us his Steam id.
    const [ann, bob, cy] = [await createUser(t), await createUser(t), await createUser(t)];
    await t.db.update(users).set({ simGuid: LWI_GUID }).where(eq(users.id, ann.id));
    const now = Date.now();
    for (const [i, who] of [ann, bob, cy].entries())
      await t.db.insert(reservations).values({
        calendarId: venue.seats[i].id,
        slot: 'now',
        time: new Date(now - 10 * 60_000),
        userId: who.id,
        paid: true,
      });

    // Seat 1 hosts, seats 2 and 3 join; a 10-lap race in the Lotus.
    const party = (
      await call('POST', '/api/races/parties/host', { calendar: venue.seats[0].id })
    ).json() as { id: number; host_event: number };
    for (const seat of venue.seats.slice(1))
      expect(
        (await call('POST', '/api/races/parties/members', { party: party.id, calendar: seat.id }))
          .statusCode,
      ).toBe(201);
    const changed = await call('PATCH', `/api/races/events/${party.host_event}`, {
      track: track.id,
      cars: [lotus.id],
      sessions: [{ type: 'RACE', duration: 10, duration_is_laps: true }],
      entries: venue.seats.map((s) => ({ calendar: s.id, car: lotus.id })),
    });
    expect(changed.statusCode).toBe(200);

    // A seat's socket on the party's event, to hear where to join.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    const ticket = (await call('POST', `/api/races/events/${party.host_event}/ticket`)).json()
      .ticket as string;
    const heard: { type: string; data?: { ac_server?: unknown } }[] = [];
    const socket = new WebSocket(
      `ws://127.0.0.1:${address.port}/ws/launcher/events/${party.host_event}/?ticket=${ticket}`,
    );
    socket.on('message', (data) => heard.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));

    // Start: the files in the party's folder, acServer started with them.
    const started = await call('POST', `/api/races/events/${party.host_event}/server`, {
      command: 'start',
    });
    expect(started.statusCode).toBe(200);
    const status = started.json();
    // The seats are told the game port and the join password (their race.ini [REMOTE]).
    const told = await until(() => heard.find((m) => m.type === 'server' && m.data?.ac_server), {
      what: 'the seats to hear the server',
    });
    expect(told?.data?.ac_server).toEqual({
      ip: '127.0.0.1',
      port: status.game_port,
      password: status.password,
    });
    socket.close();
    expect(status).toMatchObject({
      running: true,
      party: party.id,
      laps_stored: 0,
      game_port: 9600,
      password: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(status.folder).toBe(path.join(t.deps.config.dataDir, 'ac-server', `party-${party.id}`));
    const serverCfg = fs.readFileSync(path.join(status.folder, 'server_cfg.ini'), 'utf8');
    const entryList = fs.readFileSync(path.join(status.folder, 'entry_list.ini'), 'utf8');
    expect(serverCfg).toContain('MAX_CLIENTS=3\r\n');
    expect(serverCfg).toContain(`UDP_PLUGIN_ADDRESS=127.0.0.1:${status.plugin_port}\r\n`);
    expect(entryList).toContain(`GUID=${LWI_GUID}\r\n`);
    const startedWith = await until(
      () =>
        fs.existsSync(path.join(tmp, 'started'))
          ? fs.readFileSync(path.join(tmp, 'started'), 'utf8').trim()
          : '',
      { what: 'the stand-in to start' },
    );
    expect(startedWith).toBe(
      `${tmp} -c ${status.folder}/server_cfg.ini -e ${status.folder}/entry_list.ini`,
    );

    // The fake acServer runs those files and replays the Monza race: the fixture's cars 0, 2
    // and 4 drive seats 1, 2 and 3; a last lap with cuts follows.
    fake = await startFakeAcServer({
      serverCfg,
      entryList,
      replay: {
        resultsJson,
        speed: 5000,
        carIds: { 0: 0, 2: 1, 4: 2 },
        // Written outside acServer's folder and named by its full path; NEXT_SESSION's
        // relative results/RACE.json (against the binary's folder) then finds no file.
        resultsDir: path.join(tmp, 'written'),
      },
      script: [
        {
          message: {
            type: 'LAP_COMPLETED',
            carId: 1,
            lapTimeMs: 95_000,
            cuts: 3,
            leaderboard: [],
            gripLevel: 1,
          },
        },
      ],
    });
    await fake.replayDone;
    const run = t.app.acServers.run(party.id)!;
    await until(
      async () => {
        await run.queue;
        return run.lapsStored === 25 && run.imports.length === 1;
      },
      { what: 'the results import' },
    );

    const lapsOf = async (userId: number) =>
      t.db
        .select({ ms: laps.lapMs, valid: laps.valid, calendarId: laps.calendarId })
        .from(laps)
        .where(eq(laps.userId, userId));
    const annLaps = await lapsOf(ann.id);
    const bobLaps = await lapsOf(bob.id);
    const cyLaps = await lapsOf(cy.id);
    expect([annLaps.length, bobLaps.length, cyLaps.length]).toEqual([8, 9, 8]);
    expect(Math.min(...annLaps.map((l) => l.ms))).toBe(BEST.car0);
    expect(Math.min(...cyLaps.map((l) => l.ms))).toBe(BEST.car4);
    expect(new Set(bobLaps.map((l) => l.calendarId))).toEqual(new Set([venue.seats[1].id]));
    // The lap with cuts is Bob's fastest, and not valid.
    expect(bobLaps.find((l) => l.ms === 95_000)?.valid).toBe(false);

    // The board ranks them by their best valid lap.
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, cy.id, '1:39.369'],
      [2, bob.id, '1:40.594'],
      [3, ann.id, '1:40.607'],
    ]);

    // END_SESSION imported the results file: the 24 laps that came live are not doubled.
    expect(run.imports[0]).toMatchObject({ laps_added: 82 - 24, laps_skipped: 24 });
    const ours = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from laps where source_key like ${`acsrv:${party.id}:%`}`,
    );
    expect(ours.rows[0].n).toBe(82 + 1);

    // Commands reach the server.
    for (const body of [
      { command: 'broadcast_chat', message: 'Box, box' },
      { command: 'kick', car: 2 },
      { command: 'next_session' },
    ]) {
      const res = await call('POST', `/api/races/events/${party.host_event}/server`, body);
      expect(res.statusCode).toBe(200);
    }
    await until(() => fake!.commands.length === 3, { what: 'the commands' });
    expect(fake.commands).toEqual([
      { type: 'BROADCAST_CHAT', message: 'Box, box' },
      { type: 'KICK_USER', carId: 2 },
      { type: 'NEXT_SESSION' },
    ]);
    // NEXT_SESSION ended the session without a results file on disk: nothing imported, and
    // nothing lost (the laps came live).
    await until(() => fake!.sent.filter((m) => m.type === 'END_SESSION').length === 2, {
      what: 'the second END_SESSION',
    });
    await until(
      async () => {
        await run.queue;
        return run.sessionSeq === 2;
      },
      { what: 'the link to settle' },
    );
    expect(run.imports).toHaveLength(1);
    const still = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from laps where source_key like ${`acsrv:${party.id}:%`}`,
    );
    expect(still.rows[0].n).toBe(82 + 1);

    const bad = await call('POST', `/api/races/events/${party.host_event}/server`, {
      command: 'kick',
      car: 3,
    });
    expect(bad.statusCode).toBe(400);

    // The party ends: acServer is stopped.
    expect((await call('DELETE', `/api/races/parties/${party.id}`)).statusCode).toBe(204);
    await until(() => fs.existsSync(path.join(tmp, 'stopped')), { what: 'the stand-in to stop' });
    await until(() => !t.app.acServers.run(party.id), { what: 'the link to close' });
  });

  it('starts on the party’s SESSION_START (refused with the reasons when it cannot run), tells a socket that joins later where to join, and stops on SESSION_EXIT', async () => {
    const party = (
      await call('POST', '/api/races/parties/host', { calendar: venue.seats[1].id })
    ).json() as { id: number; host_event: number };
    const eventId = party.host_event;
    await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
    const address = t.app.server.address() as { port: number };
    const open = async () => {
      const ticket = (await call('POST', `/api/races/events/${eventId}/ticket`)).json()
        .ticket as string;
      const heard: { type: string; data?: { ac_server?: unknown }; detail?: string }[] = [];
      const ws = new WebSocket(
        `ws://127.0.0.1:${address.port}/ws/launcher/events/${eventId}/?ticket=${ticket}`,
      );
      ws.on('message', (data) => heard.push(JSON.parse(String(data))));
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      await until(() => heard.length > 0, { what: 'the whole event' });
      return { ws, heard };
    };

    // No track, no cars yet: the start is refused with every reason, and no seat hears it.
    const early = await open();
    const refused = await call('POST', `/api/races/events/${eventId}/signal`, {
      signal: 'SESSION_START',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().non_field_errors).toEqual(
      expect.arrayContaining(['The event has no track.', 'The event has no cars.']),
    );
    early.ws.send(JSON.stringify({ type: 'signal', signal: 'SESSION_START' }));
    const said = await until(() => early.heard.find((m) => m.type === 'error'), {
      what: 'the refusal on the socket',
    });
    expect(said?.detail).toContain('The event has no track.');
    expect(early.heard.filter((m) => m.type === 'signal' || m.type === 'server')).toEqual([]);
    expect(t.app.acServers.run(party.id)).toBeUndefined();
    early.ws.close();

    // A seat that is no party starts no server.
    const lone = (await call('GET', `/api/calendars/${venue.seats[2].id}`)).json().event;
    const running = () => t.app.acServers.parties;
    expect(
      (await call('POST', `/api/races/events/${lone}/signal`, { signal: 'SESSION_START' }))
        .statusCode,
    ).toBe(202);
    expect(running()).toEqual([]);

    // Runnable: SESSION_START starts it; a socket that opens afterwards hears where to join
    // right after the whole event.
    const [monza] = await t.db.select().from(tracks).where(eq(tracks.key, 'monza'));
    const [lotus] = await t.db.select().from(cars).where(eq(cars.key, 'lotus_exos_125'));
    expect(
      (
        await call('PATCH', `/api/races/events/${eventId}`, {
          track: monza.id,
          cars: [lotus.id],
          sessions: [{ type: 'RACE', duration: 5, duration_is_laps: true }],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `/api/races/events/${eventId}/signal`, { signal: 'SESSION_START' }))
        .statusCode,
    ).toBe(202);
    const status = t.app.acServers.status(party.id);
    expect(status.running).toBe(true);
    const late = await open();
    await until(() => late.heard.some((m) => m.type === 'server'), { what: 'the server message' });
    expect(late.heard.slice(0, 2).map((m) => m.type)).toEqual(['model_updated', 'server']);
    expect(late.heard[1]).toEqual({
      type: 'server',
      data: { ac_server: { ip: '127.0.0.1', port: status.game_port, password: status.password } },
      from: null,
    });
    late.ws.close();

    // SESSION_EXIT stops it.
    expect(
      (await call('POST', `/api/races/events/${eventId}/signal`, { signal: 'SESSION_EXIT' }))
        .statusCode,
    ).toBe(202);
    expect(t.app.acServers.run(party.id)).toBeUndefined();
    expect(running()).toEqual([]);
    expect((await call('DELETE', `/api/races/parties/${party.id}`)).statusCode).toBe(204);
  });

  it('gives the laps and results it recovers from the results file to the seat’s booked customer, and stores a lap that came live without its driver once, the file filling the driver in', async () => {
    // A venue of its own: three seats, three customers, none with a Steam id. Dee and Eve are
    // booked on seats 1 and 2 for the race; seat 3 has only a cancelled booking and a blackout.
    const place = await createVenue(t, { seats: 3 });
    const [dee, eve, fay, gus] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    await t.db.update(users).set({ racerName: 'Dee on seat 1' }).where(eq(users.id, dee.id));
    const since = new Date(Date.now() - 25 * 60_000);
    await t.db.insert(reservations).values([
      { calendarId: place.seats[0].id, slot: 'now', time: since, userId: dee.id, paid: true },
      { calendarId: place.seats[1].id, slot: 'now', time: since, userId: eve.id, paid: true },
      {
        calendarId: place.seats[2].id,
        slot: 'now',
        time: since,
        userId: fay.id,
        paid: true,
        cancelledAt: new Date(),
      },
      {
        calendarId: place.seats[2].id,
        slot: 'blackout',
        time: since,
        userId: gus.id,
        isBlackout: true,
      },
    ]);
    const [track] = await t.db.select().from(tracks).where(eq(tracks.key, 'monza'));
    const [lotus] = await t.db.select().from(cars).where(eq(cars.key, 'lotus_exos_125'));
    const party = (
      await call('POST', '/api/races/parties/host', { calendar: place.seats[0].id })
    ).json() as { id: number; host_event: number };
    for (const seat of place.seats.slice(1))
      await call('POST', '/api/races/parties/members', { party: party.id, calendar: seat.id });
    expect(
      (
        await call('PATCH', `/api/races/events/${party.host_event}`, {
          track: track.id,
          cars: [lotus.id],
          sessions: [{ type: 'RACE', duration: 10, duration_is_laps: true }],
          entries: place.seats.map((s) => ({ calendar: s.id, car: lotus.id })),
        })
      ).statusCode,
    ).toBe(200);
    const status = (
      await call('POST', `/api/races/events/${party.host_event}/server`, { command: 'start' })
    ).json();
    expect(status.running).toBe(true);

    // The real Monza race as acServer writes it for this entry list: the winner Andrea Sorlini
    // (the file's car 9) drove seat 1, End 222 (car 7) seat 2, Timo Haapala (car 4) seat 3; the
    // other cars are past the entry list. End 222's second and third laps have one time.
    const END_GUID = '76561198054038946';
    const remap = (id: number) => ({ 9: 0, 7: 1, 4: 2 })[id] ?? 3 + id;
    const file = JSON.parse(resultsJson) as {
      Cars: { CarId: number }[];
      Result: { CarId: number }[];
      Laps: { CarId: number; LapTime: number; DriverGuid: string }[];
    };
    for (const row of [...file.Cars, ...file.Result, ...file.Laps]) row.CarId = remap(row.CarId);
    const endLaps = file.Laps.filter((l) => l.CarId === 1);
    endLaps[2].LapTime = endLaps[1].LapTime;
    const resultsPath = path.join(tmp, 'seats-race.json');
    fs.writeFileSync(resultsPath, JSON.stringify(file));

    // Live, acServer's NEW_CONNECTION for seat 2 was lost (its CONNECTION_CLOSED came): its
    // first three laps arrive without a driver; every other lap was missed live.
    await fake?.stop();
    fake = await startFakeAcServer({
      serverCfg: fs.readFileSync(path.join(status.folder, 'server_cfg.ini'), 'utf8'),
      entryList: fs.readFileSync(path.join(status.folder, 'entry_list.ini'), 'utf8'),
      script: [
        {
          waitMs: 100,
          message: {
            type: 'CONNECTION_CLOSED',
            driverName: '',
            driverGuid: '',
            carId: 1,
            carModel: 'lotus_exos_125',
            carSkin: '',
          },
        },
        ...endLaps.slice(0, 3).map((l) => ({
          message: {
            type: 'LAP_COMPLETED' as const,
            carId: 1,
            lapTimeMs: l.LapTime,
            cuts: 0,
            leaderboard: [],
            gripLevel: 1,
          },
        })),
        { waitMs: 50, message: { type: 'END_SESSION' as const, resultsFile: resultsPath } },
      ],
    });
    await fake.replayDone;
    const run = t.app.acServers.run(party.id)!;
    await until(
      async () => {
        await run.queue;
        return run.imports.length === 1;
      },
      { what: 'the results import' },
    );
    // The two laps of one time are two laps; the file's copies of the three live laps are not
    // stored again, they fill in the driver.
    expect(run.lapsStored).toBe(3);
    expect(run.imports[0]).toMatchObject({
      already_imported: false,
      laps_added: 82 - 3,
      laps_filled: 3,
      laps_skipped: 3,
    });
    const stored = await t.db
      .select({
        ms: laps.lapMs,
        user: laps.userId,
        seat: laps.calendarId,
        guid: laps.driverGuid,
        name: laps.driverName,
      })
      .from(laps)
      .where(sql`${laps.sourceKey} like ${`acsrv:${party.id}:%`}`);
    expect(stored).toHaveLength(82);
    const onSeat = (i: number) => stored.filter((l) => l.seat === place.seats[i].id);
    // Seat 1: Andrea Sorlini's ten laps, all missed live, are Dee's.
    expect(onSeat(0)).toHaveLength(10);
    expect(new Set(onSeat(0).map((l) => l.user))).toEqual(new Set([dee.id]));
    // Seat 2: End 222's nine laps, once each, Eve's, with the driver the file names.
    expect(onSeat(1)).toHaveLength(9);
    expect(new Set(onSeat(1).map((l) => [l.user, l.guid, l.name].join()))).toEqual(
      new Set([[eve.id, END_GUID, 'End 222'].join()]),
    );
    expect(onSeat(1).filter((l) => l.ms === endLaps[1].LapTime)).toHaveLength(2);
    // Seat 3: a cancelled booking and a blackout give the laps to nobody.
    expect(onSeat(2)).toHaveLength(8);
    expect(onSeat(2).every((l) => l.user === null)).toBe(true);
    // Cars past the entry list have no seat: Lwi's eight laps are Ann's by the Steam id she
    // registered, the others nobody's.
    const seatless = stored.filter((l) => l.seat === null);
    expect(seatless).toHaveLength(82 - 27);
    expect(seatless.filter((l) => l.user !== null)).toEqual(
      Array.from({ length: 8 }, () => expect.objectContaining({ guid: LWI_GUID })),
    );

    // The race's results: the booked customers' finishes are theirs (a POINTS board counts them).
    const finishes = await t.db.execute<{ position: number; user_id: number | null }>(sql`
      select r.position, r.user_id from race_results r
      join race_sessions s on s.id = r.session_id
      where s.id = (select max(id) from race_sessions) order by r.position limit 3`);
    expect(finishes.rows).toEqual([
      { position: 1, user_id: dee.id },
      { position: 2, user_id: eve.id },
      { position: 3, user_id: null },
    ]);
    const board = (
      await call('POST', '/api/boards', { name: 'Seats cup', calculation: 'POINTS' })
    ).json();
    const standings = (
      await t.app.inject({ method: 'GET', url: `/api/teams?board=${board.id}&page_size=50` })
    ).json() as { results: { name: string; points: number }[] };
    // Under her racer name, not the in-game name of the file.
    expect(standings.results).toContainEqual(
      expect.objectContaining({ name: 'Dee on seat 1', points: 25 }),
    );

    await call('POST', `/api/races/events/${party.host_event}/server`, { command: 'stop' });
    expect((await call('DELETE', `/api/races/parties/${party.id}`)).statusCode).toBe(204);
  });

  it('says so when AC_SERVER_PATH is unset, and refuses a seat that is no party', async () => {
    const link = new AcServerLink(t.db, undefined, tmp, t.app.log);
    const party = (
      await call('POST', '/api/races/parties/host', { calendar: venue.seats[0].id })
    ).json() as { id: number; host_event: number };
    await expect(link.command(party.host_event, { command: 'start' })).rejects.toMatchObject({
      statusCode: 409,
      detail: expect.stringMatching(/AC_SERVER_PATH/),
    });
    const lone = await call('GET', `/api/calendars/${venue.seats[1].id}`);
    const res = await call('POST', `/api/races/events/${lone.json().event}/server`, {
      command: 'start',
    });
    expect(res.statusCode).toBe(400);
  });
});
