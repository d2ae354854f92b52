import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startFakeAccServer, type FakeAccServer } from '@paddock/ac-protocol/acc/fake-accserver';
import { decodeAccConfigFile } from '@paddock/ac-protocol/acc/server-config';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { cars, laps, tracks } from '../../db/schema/laps';

const ANN_STEAM = '76561197971070302';

let t: TestApp;
let tmp: string;
let broadcastPort: number;
let staff: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
let fake: FakeAccServer | undefined;

async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-accserver-'));
  // The stand-in accServer: says where it was started, and when it was stopped.
  const standIn = path.join(tmp, 'accServer');
  fs.writeFileSync(
    standIn,
    [
      '#!/bin/sh',
      `echo "$PWD" > "${tmp}/started"`,
      `trap 'echo stopped > "${tmp}/stopped"; exit 0' TERM`,
      'while :; do sleep 0.1; done',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  broadcastPort = await freeUdpPort();
  t = await createTestApp({
    ACC_SERVER_PATH: standIn,
    ACC_BROADCAST_PORT: String(broadcastPort),
    ACC_BROADCAST_PASSWORD: 'venue-secret',
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

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });

describe('a party on the ACC dedicated server', () => {
  it('writes cfg/, starts accServer, stores live laps on the booked customers, recovers a missed lap from the results file once, and stops', async () => {
    const [track] = await t.db
      .insert(tracks)
      .values({ sim: 'acc', key: 'monza', layout: '', name: 'Monza (ACC)' })
      .returning();
    const [amg] = await t.db
      .insert(cars)
      .values({ sim: 'acc', key: 'mercedes_amg_gt3_evo', name: 'Mercedes-AMG GT3 Evo' })
      .returning();
    const board = (
      await call('POST', '/api/boards', { name: 'Monza ACC', calculation: 'TIME', track: track.id })
    ).json();
    const results = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/boards/${board.id}/results?count=10` })
      ).json() as { user: number; rank: number; hms: string }[];

    const [ann, bob, cy] = [await createUser(t), await createUser(t), await createUser(t)];
    await t.db.update(users).set({ simGuid: ANN_STEAM }).where(eq(users.id, ann.id));
    const now = Date.now();
    for (const [i, who] of [ann, bob, cy].entries())
      await t.db.insert(reservations).values({
        calendarId: venue.seats[i].id,
        slot: 'now',
        time: new Date(now - 10 * 60_000),
        userId: who.id,
        paid: true,
      });

    const party = (
      await call('POST', '/api/races/parties/host', { calendar: venue.seats[0].id })
    ).json() as { id: number; host_event: number };
    for (const seat of venue.seats.slice(1))
      await call('POST', '/api/races/parties/members', { party: party.id, calendar: seat.id });
    const entries = venue.seats.map((s) => ({ calendar: s.id, car: amg.id }));

    // ACC runs sessions for minutes: a race by laps is refused with the reason.
    await call('PATCH', `/api/races/events/${party.host_event}`, {
      track: track.id,
      cars: [amg.id],
      sessions: [{ type: 'RACE', duration: 10, duration_is_laps: true }],
      entries,
    });
    const refused = await call('POST', `/api/races/events/${party.host_event}/server`, {
      command: 'start',
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('ACC runs sessions for minutes');

    await call('PATCH', `/api/races/events/${party.host_event}`, {
      sessions: [
        { type: 'PRACTICE', duration: 10, duration_is_laps: false },
        { type: 'RACE', duration: 20, duration_is_laps: false },
      ],
    });
    const started = await call('POST', `/api/races/events/${party.host_event}/server`, {
      command: 'start',
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ running: true, party: party.id, game_port: 9232 });
    expect(
      await until(() => fs.existsSync(path.join(tmp, 'started')), {
        what: 'the stand-in to start',
        ms: 15000,
      }),
    ).toBe(true);

    // cfg/ beside the binary, UTF-16 LE as accServer writes it; each seat a fixed race number.
    const cfg = path.join(tmp, 'cfg');
    const raw = fs.readFileSync(path.join(cfg, 'entrylist.json'));
    expect([raw[0], raw[1]]).toEqual([0xff, 0xfe]);
    const list = JSON.parse(decodeAccConfigFile(raw));
    expect(list.entries.map((e: { raceNumber: number }) => e.raceNumber)).toEqual([1, 2, 3]);
    expect(list.entries[0].drivers[0].playerID).toBe(`S${ANN_STEAM}`);
    expect(list.entries[0].forcedCarModel).toBe(25);
    // The handbook's configuration.json keys: LAN discovery on (the rigs' serverList.json points
    // the game's scan at this host), two connections beyond the three cars.
    const conf = JSON.parse(
      decodeAccConfigFile(fs.readFileSync(path.join(cfg, 'configuration.json'))),
    );
    expect(conf).toMatchObject({ lanDiscovery: 1, maxConnections: 5, registerToLobby: 0 });
    // results/ beside the binary exists before accServer starts: it writes none otherwise.
    expect(fs.statSync(path.join(tmp, 'results')).isDirectory()).toBe(true);

    // The fake accServer runs those files; Paddock registers on its broadcasting port.
    fake = await startFakeAccServer({
      cfgDir: cfg,
      broadcastPort,
      connectionPassword: 'venue-secret',
      resultsDir: path.join(tmp, 'results'),
    });
    const run = t.app.acServers.acc.run(party.id)!;
    await until(() => run.carSeat.size === 3, { what: 'the entry list', ms: 15000 });

    await fake.lap(1, 100_000);
    await fake.lap(2, 99_000, true); // invalid: not on the board
    await fake.lap(3, 101_000);
    fake.drop(2); // ann's second lap is lost live (the event and the car update)
    await fake.lap(1, 98_000);
    await fake.lap(2, 100_500);
    await until(
      async () => {
        await run.queue;
        return run.lapsStored === 4;
      },
      { what: 'four live laps', ms: 15000 },
    );

    // Session over: the results file is imported; the four live laps are not doubled.
    await fake.endSession();
    await until(
      async () => {
        await run.queue;
        return run.imports.length === 1;
      },
      { what: 'the results import', ms: 15000 },
    );
    expect(run.imports[0]).toMatchObject({ laps_added: 1, laps_skipped: 4 });

    const lapsOf = async (userId: number) =>
      (
        await t.db
          .select({ ms: laps.lapMs, valid: laps.valid, calendarId: laps.calendarId })
          .from(laps)
          .where(eq(laps.userId, userId))
      ).sort((a, b) => a.ms - b.ms);
    expect(await lapsOf(ann.id)).toEqual([
      { ms: 98_000, valid: true, calendarId: venue.seats[0].id },
      { ms: 100_000, valid: true, calendarId: venue.seats[0].id },
    ]);
    expect((await lapsOf(bob.id)).map((l) => [l.ms, l.valid])).toEqual([
      [99_000, false],
      [100_500, true],
    ]);
    expect((await lapsOf(cy.id)).map((l) => l.ms)).toEqual([101_000]);
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, ann.id, '1:38.000'],
      [2, bob.id, '1:40.500'],
      [3, cy.id, '1:41.000'],
    ]);
    const ours = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from laps where source_key like ${`accsrv:${party.id}:%`}`,
    );
    expect(ours.rows[0].n).toBe(5);

    // Stop: accServer goes, the broadcasting link unregisters.
    const stopped = await call('POST', `/api/races/events/${party.host_event}/server`, {
      command: 'stop',
    });
    expect(stopped.json()).toMatchObject({ running: false });
    expect(fs.existsSync(path.join(tmp, 'stopped'))).toBe(true);
    await until(() => fake!.registered === 0, { what: 'the unregistration', ms: 15000 });
    // The SDK's unregistration: the type byte alone.
    expect(fake.receivedHex.at(-1)).toBe('09');
  });

  it('loses and doubles nothing when the database refuses a live lap and then the import: the file brings the lap, the import is tried again at the stop', async () => {
    const [track] = await t.db.select().from(tracks).where(eq(tracks.key, 'monza'));
    // The party of the first test, started again (a new run).
    const [p] = (
      await t.db.execute<{ id: number; host_event_id: number }>(
        sql`select id, host_event_id from parties order by id desc limit 1`,
      )
    ).rows;
    expect(track).toBeDefined();
    fs.rmSync(path.join(tmp, 'results'), { recursive: true, force: true });
    await fake?.stop();
    // Each seat's PC plays on its own Steam account (set on the seat): the entry list ties the
    // race numbers to them and is forced. A bad id is refused, naming the field.
    const owner = await createUser(t, {
      isStaff: true,
      permissions: ['calendars.change_calendar'],
    });
    const seatIds = ['76561198000000101', '76561198000000102', '76561198000000103'];
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/calendars/${venue.seats[0].id}`,
      headers: bearer(owner.token),
      payload: { steam_id: '7656119800000010' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['steam_id']);
    for (const [i, seat] of venue.seats.entries()) {
      const set = await t.app.inject({
        method: 'PATCH',
        url: `/api/calendars/${seat.id}`,
        headers: bearer(owner.token),
        payload: { steam_id: seatIds[i] },
      });
      expect(set.statusCode).toBe(200);
    }
    const started = await call('POST', `/api/races/events/${p.host_event_id}/server`, {
      command: 'start',
    });
    expect(started.statusCode).toBe(200);
    fake = await startFakeAccServer({
      cfgDir: path.join(tmp, 'cfg'),
      broadcastPort,
      connectionPassword: 'venue-secret',
      resultsDir: path.join(tmp, 'results'),
    });
    expect(fake.config.entries.map((e) => [e.raceNumber, e.steamId])).toEqual([
      [1, seatIds[0]],
      [2, seatIds[1]],
      [3, seatIds[2]],
    ]);
    const forced = JSON.parse(
      decodeAccConfigFile(fs.readFileSync(path.join(tmp, 'cfg', 'entrylist.json'))),
    );
    expect(forced.forceEntryList).toBe(1);
    const run = t.app.acServers.acc.run(p.id)!;
    await until(() => run.carSeat.size === 3, { what: 'the entry list', ms: 15000 });
    const ours = async () =>
      (
        await t.db.execute<{ ms: number }>(
          sql`select lap_ms as ms from laps where source_key like ${`accsrv:${p.id}:${run.runId}:%`} order by lap_ms`,
        )
      ).rows.map((r) => r.ms);

    // The database refuses every ACC lap while the trigger is there (a write failing at the
    // worst moment: the lap has come and gone on the wire).
    const refuse = async (on: boolean) =>
      on
        ? t.db.execute(sql`
            create or replace function paddock_refuse_acc() returns trigger language plpgsql as
              $$ begin if new.source_key like 'accsrv:%' then raise exception 'refused'; end if; return new; end $$;
            create trigger paddock_refuse_acc before insert on laps
              for each row execute function paddock_refuse_acc();`)
        : t.db.execute(sql`drop trigger paddock_refuse_acc on laps`);

    await fake.lap(1, 97_000);
    await until(
      async () => {
        await run.queue;
        return run.lapsStored === 1;
      },
      { what: 'the first lap', ms: 15000 },
    );
    await refuse(true);
    await fake.lap(2, 96_000); // refused live
    await fake.lap(3, 96_500); // refused live
    await until(() => run.seatLaps.get(2) === 1, { what: 'the refused laps to come', ms: 15000 });
    await run.queue;
    expect(run.lapsStored).toBe(1);
    // The session ends while the database still refuses: the import stores nothing.
    await fake.endSession();
    await until(
      async () => {
        await run.queue;
        return run.importErrors >= 1;
      },
      { what: 'the failed import', ms: 15000 },
    );
    expect(run.imports).toEqual([]);
    expect(await ours()).toEqual([97_000]);

    // The database is back; the stop imports the file again: every lap once.
    await refuse(false);
    const stopped = await call('POST', `/api/races/events/${p.host_event_id}/server`, {
      command: 'stop',
    });
    expect(stopped.statusCode).toBe(200);
    expect(run.imports).toHaveLength(1);
    expect(run.imports[0]).toMatchObject({ laps_added: 2, laps_skipped: 1 });
    expect(await ours()).toEqual([96_000, 96_500, 97_000]);
  });
});
