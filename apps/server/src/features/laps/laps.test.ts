import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { users } from '../../db/schema/accounts';
import { cars, laps, personalBests, raceResults, tracks } from '../../db/schema/laps';
import { DEFAULT_RULES } from './points';
import { AC_RESULTS as FIXTURES } from '../../test/fixtures';
import { ownTrack } from '../../test/race-results';

let t: TestApp;
let staff: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, {
    isStaff: true,
    permissions: [
      'laps.change_lap',
      'leaderboards.change_board',
      'rigs.change_rig',
      'reservations.change_reservation',
    ],
  });
  venue = await createVenue(t, { seats: 2 });
});
afterAll(() => t.close());

const file = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const importFile = (body: Buffer, who = staff) =>
  t.app.inject({
    method: 'POST',
    url: '/api/laps/import',
    headers: { ...bearer(who.token), 'content-type': 'application/octet-stream' },
    payload: body,
  });
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  who: CreatedUser | null,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: who ? bearer(who.token) : {},
    ...(payload ? { payload } : {}),
  });

describe('results import', () => {
  it('imports an AC race and, a second time, adds nothing', async () => {
    // Two racers have linked their sim id.
    const andrea = await createUser(t, { firstName: 'Andrea', lastName: 'Sorlini' });
    await t.db
      .update(users)
      .set({ simGuid: '76561198213775428', flagCode: 'it' })
      .where(eq(users.id, andrea.id));
    const first = await importFile(file('server-race-monza.json'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      sim: 'ac',
      track: 'monza',
      session: 'RACE',
      laps_added: 82,
      laps_skipped: 0,
      drivers_matched: 1,
    });
    const again = await importFile(file('server-race-monza.json'));
    expect(again.json()).toMatchObject({ laps_added: 0, laps_skipped: 82 });
    const mine = (await call('GET', '/api/laps?page_size=100', andrea)).json();
    // Andrea Sorlini's laps in the file, read by hand: 10, best 1:38.907.
    expect(mine.count).toBe(10);
    const [best] = await t.db
      .select()
      .from(personalBests)
      .where(eq(personalBests.userId, andrea.id));
    expect(best.lapMs).toBe(98907);
  });

  it('imports ACC (UTF-16LE) and an AC qualifying with its cut laps not valid', async () => {
    const acc = await importFile(file('acc-race.json'));
    expect(acc.statusCode).toBe(200);
    expect(acc.json()).toMatchObject({ sim: 'acc', track: 'brands_hatch', laps_added: 65 });
    const q = await importFile(file('server-qualify-monza.json'));
    expect(q.json()).toMatchObject({ session: 'QUALIFY', laps_added: 101 });
    const invalid = await t.db.select().from(laps).where(eq(laps.valid, false));
    expect(invalid.length).toBeGreaterThanOrEqual(56);
    expect(invalid.every((l) => l.invalidReason.startsWith('Track limits'))).toBe(true);
    const tracks = (await call('GET', '/api/tracks?search=brands', null)).json();
    expect(tracks.results[0]).toMatchObject({
      name: 'Brands Hatch',
      needs_review: true,
      laps_count: 65,
    });
  });

  it('knows a session by its content: the same race with one more newline, or saved again as UTF-16, adds nothing and says so', async () => {
    const count = async () => (await t.db.select({ id: laps.id }).from(laps)).length;
    const before = await count();
    const bytes = file('server-race-monza.json');
    for (const again of [
      Buffer.concat([bytes, Buffer.from('\n')]),
      Buffer.from(`\uFEFF${bytes.toString('utf8').replaceAll('\n', '\r\n')}`, 'utf16le'),
    ]) {
      const res = await importFile(again);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        session: 'RACE',
        already_imported: true,
        laps_added: 0,
        laps_skipped: 82,
      });
    }
    expect(await count()).toBe(before);
    const sessions = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from race_sessions`,
    );
    expect(sessions.rows[0].n).toBe(3);
  });

  it('refuses a truncated or non-JSON file with a 400 that says so, importing nothing', async () => {
    const before = (await t.db.select().from(laps)).length;
    for (const body of [file('server-race-monza.json').subarray(0, 300), Buffer.from('hello')]) {
      const res = await importFile(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().file[0]).toMatch(/not valid JSON/);
    }
    expect((await t.db.select().from(laps)).length).toBe(before);
    const customer = await createUser(t);
    expect((await importFile(file('acc-race.json'), customer)).statusCode).toBe(403);
  });
});

describe('laps from rigs', () => {
  it('stores a resent lap once and gives it to the customer booked on that seat', async () => {
    const key = (
      await call('POST', '/api/rig_keys', staff, { calendar: venue.seats[0].id, label: 'Rig 1' })
    ).json().key;
    const racer = await createUser(t);
    const start = DateTime.now()
      .setZone('America/Los_Angeles')
      .minus({ days: 1 })
      .set({ hour: 12, minute: 0, second: 0, millisecond: 0 });
    const booked = await call('POST', '/api/reservations', staff, {
      calendar: venue.seats[0].id,
      slot: start.toFormat("yyyy-MM-dd'T'HH:mm"),
      user: racer.id,
      paid: true,
    });
    expect(booked.statusCode).toBe(201);
    const lap = {
      client_lap_id: 'lap-1',
      sim: 'ac',
      track: 'ks_nurburgring',
      layout: 'layout_gp_a',
      car: 'ks_porsche_911_gt3_r_2016',
      lap_ms: 121_456,
      sectors_ms: [40_000, 41_000, 40_456],
      tyre: 'Slick Medium',
      fuel: 30,
      recorded_at: start.plus({ minutes: 20 }).toISO(),
    };
    const send = (body: object, rigKey = key) =>
      t.app.inject({
        method: 'POST',
        url: '/api/laps',
        headers: { authorization: `Rig ${rigKey}` },
        payload: body,
      });
    const first = await send(lap);
    expect(first.statusCode).toBe(201);
    // The boards and the laps of that track were said to have changed.
    const said = await t.db.execute<{ topic: string }>(
      sql`select topic from change_events order by seq desc limit 2`,
    );
    expect(said.rows.map((r) => r.topic).sort()).toEqual(['boards', 'laps']);
    const resent = await send(lap);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ id: first.json().id, created: false });
    // Recorded just after the booking ended: still the racer's.
    const late = await send({
      ...lap,
      client_lap_id: 'lap-2',
      lap_ms: 120_999,
      recorded_at: start.plus({ minutes: 35 }).toISO(),
    });
    expect(late.statusCode).toBe(201);
    const mine = (await call('GET', '/api/laps', racer)).json();
    expect(mine.results.map((l: { hms: string }) => l.hms)).toEqual(['2:00.999', '2:01.456']);
    // My progress on that track: one session (that day in that car), its best.
    const progress = await call('GET', `/api/laps/progress?track=${mine.results[0].track}`, racer);
    expect(progress.json()).toEqual([
      {
        date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        car: mine.results[0].car,
        car_name: expect.any(String),
        best_ms: 120_999,
        hms: '2:00.999',
        laps: 2,
        personal_best: true,
      },
    ]);
    expect((await send(lap, 'rig_wrong')).statusCode).toBe(401);
    expect((await send(lap, staff.token)).statusCode).toBe(401);
  });
});

describe('a rig asking who it is', () => {
  it('gets its seat and the event the seat runs now; a revoked key or a session gets 401', async () => {
    const made = (
      await call('POST', '/api/rig_keys', staff, { calendar: venue.seats[1].id, label: 'Rig 2' })
    ).json();
    const me = (key: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/rig_keys/me',
        headers: { authorization: `Rig ${key}` },
      });
    const seat = (await call('GET', `/api/calendars/${venue.seats[1].id}`, null)).json();
    const res = await me(made.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: made.id,
      calendar: venue.seats[1].id,
      calendar_name: seat.name,
      label: 'Rig 2',
      event: seat.event,
    });
    expect(seat.event).toEqual(expect.any(Number));
    expect((await call('GET', '/api/rig_keys/me', staff)).statusCode).toBe(401);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/rig_keys/${made.id}`,
      headers: bearer(staff.token),
    });
    expect(revoked.statusCode).toBe(204);
    expect((await me(made.key)).statusCode).toBe(401);
  });
});

describe('TIME boards', () => {
  it('rank each racer once by best valid lap, ties to the earlier lap, and fall back when a lap is invalidated', async () => {
    const track = (
      await call('POST', '/api/tracks', staff, {
        sim: 'ac',
        key: 'ks_vallelunga',
        layout: 'club_circuit',
        name: 'Vallelunga Club',
      })
    ).json();
    const gt3 = (await call('POST', '/api/groups', staff, { name: 'GT3' })).json();
    const car = (
      await call('POST', '/api/cars', staff, {
        sim: 'ac',
        key: 'ks_audi_r8_lms',
        name: 'Audi R8 LMS',
        groups: [gt3.id],
      })
    ).json();
    const [ann, bob, cy] = [await createUser(t), await createUser(t), await createUser(t)];
    const at = (min: number) => new Date(Date.now() - 3600_000 + min * 60_000);
    let n = 0;
    const add = async (who: CreatedUser, ms: number, min: number, valid = true) => {
      n += 1;
      const [row] = await t.db
        .insert(laps)
        .values({
          userId: who.id,
          trackId: track.id,
          carId: car.id,
          sim: 'ac',
          lapMs: ms,
          recordedAt: at(min),
          sourceKey: `test:${n}`,
          valid,
        })
        .returning({ id: laps.id });
      const { refreshPersonalBest } = await import('./laps.repo');
      await refreshPersonalBest(t.db, who.id, track.id, car.id);
      return row.id;
    };
    const annBest = await add(ann, 80_000, 1);
    await add(ann, 81_000, 2);
    await add(bob, 80_000, 3); // same time, later: behind ann
    await add(cy, 79_000, 4, false); // not valid
    await add(cy, 82_000, 5);
    const board = (
      await call('POST', '/api/boards', staff, {
        name: 'Vallelunga GT3',
        calculation: 'TIME',
        track: track.id,
        group: gt3.id,
      })
    ).json();
    const results = async () =>
      (await call('GET', `/api/boards/${board.id}/results?count=10`, null)).json() as {
        user: number;
        rank: number;
        hms: string;
      }[];
    expect((await results()).map((r) => [r.rank, r.user, r.hms])).toEqual([
      [1, ann.id, '1:20.000'],
      [2, bob.id, '1:20.000'],
      [3, cy.id, '1:22.000'],
    ]);
    const inv = await call('PATCH', `/api/laps/${annBest}`, staff, {
      approved: false,
      reason: 'Drove the pit lane',
    });
    expect(inv.statusCode).toBe(200);
    expect(inv.json()).toMatchObject({ approved: false, invalid_reason: 'Drove the pit lane' });
    expect((await results()).map((r) => [r.user, r.hms])).toEqual([
      [bob.id, '1:20.000'],
      [ann.id, '1:21.000'],
      [cy.id, '1:22.000'],
    ]);
    // On the page: one car, or one tyre compound.
    const porsche = (
      await call('POST', '/api/cars', staff, {
        sim: 'ac',
        key: 'ks_porsche_911_gt3_cup',
        name: 'Porsche 911 GT3 R',
        groups: [gt3.id],
      })
    ).json();
    n += 1;
    await t.db.insert(laps).values({
      userId: cy.id,
      trackId: track.id,
      carId: porsche.id,
      sim: 'ac',
      lapMs: 83_000,
      recordedAt: at(6),
      sourceKey: `test:${n}`,
      valid: true,
      tyre: 'Slick Soft',
    });
    const { refreshPersonalBest } = await import('./laps.repo');
    await refreshPersonalBest(t.db, cy.id, track.id, porsche.id);
    const byCar = (
      await call('GET', `/api/boards/${board.id}/results?car=${porsche.id}`, null)
    ).json();
    expect(byCar.map((r: { user: number; car_name: string }) => [r.user, r.car_name])).toEqual([
      [cy.id, 'Porsche 911 GT3 R'],
    ]);
    const byTyre = (
      await call('GET', `/api/boards/${board.id}/results?tyre=Slick%20Soft`, null)
    ).json();
    expect(byTyre.map((r: { hms: string }) => r.hms)).toEqual(['1:23.000']);
    // A rolling one-week board reads the laps since then; the same order here.
    const week = (
      await call('POST', '/api/boards', staff, {
        name: 'This week',
        calculation: 'TIME',
        track: track.id,
        time_frame_days: 7,
      })
    ).json();
    expect(week.time_frame_pretty).toBe('Last week');
    const weekly = (await call('GET', `/api/boards/${week.id}/results`, null)).json();
    expect(weekly.map((r: { user: number }) => r.user)).toEqual([bob.id, ann.id, cy.id]);
  });
});

describe("a car group's TIME board", () => {
  it('merges its cars in time order past faster cars of other groups, one row per racer', async () => {
    const track = (
      await call('POST', '/api/tracks', staff, {
        sim: 'ac',
        key: 'ks_red_bull_ring',
        layout: 'gp',
        name: 'Red Bull Ring GP',
      })
    ).json();
    const group = (await call('POST', '/api/groups', staff, { name: 'GT3 merge' })).json();
    const car = async (key: string, groups: number[]) =>
      (await call('POST', '/api/cars', staff, { sim: 'ac', key, name: key, groups })).json().id;
    const [a, b, c, formula] = [
      await car('merge_gt3_a', [group.id]),
      await car('merge_gt3_b', [group.id]),
      await car('merge_gt3_c', [group.id]),
      await car('merge_formula', []),
    ];
    // 260 racers in the three group cars with close times (so a hundred racers take more than
    // one step of the board's walk), and every one faster in the Formula car than anyone in a
    // GT3.
    const racers = await t.db
      .insert(users)
      .values(
        Array.from({ length: 260 }, (_, i) => ({
          username: `merge-${i}@example.com`,
          email: `merge-${i}@example.com`,
          passwordHash: 'not-a-login',
          firstName: 'Merge',
          lastName: `Racer ${i}`,
        })),
      )
      .returning({ id: users.id });
    const now = Date.now();
    const rows = racers.flatMap((r, i) => [
      { user: r.id, car: a, ms: 90_000 + ((i * 37) % 260) * 10 + (i % 3) },
      { user: r.id, car: b, ms: 90_000 + ((i * 37) % 260) * 10 + (i % 5) },
      { user: r.id, car: c, ms: 90_000 + ((i * 37) % 260) * 10 + (i % 7) },
      { user: r.id, car: formula, ms: 60_000 + i },
    ]);
    const inserted = await t.db
      .insert(laps)
      .values(
        rows.map((r, n) => ({
          userId: r.user,
          trackId: track.id,
          carId: r.car,
          sim: 'ac' as const,
          lapMs: r.ms,
          recordedAt: new Date(now - 86_400_000 + n),
          sourceKey: `merge:${n}`,
          valid: true,
        })),
      )
      .returning({ id: laps.id, userId: laps.userId, carId: laps.carId, lapMs: laps.lapMs });
    const { refreshPersonalBest } = await import('./laps.repo');
    for (const r of racers)
      for (const id of [a, b, c, formula]) await refreshPersonalBest(t.db, r.id, track.id, id);
    // Each racer's best in a GT3 of the group, fastest first, ties to the earlier lap.
    const expected = racers
      .map((r) => {
        const mine = inserted
          .filter((l) => l.userId === r.id && l.carId !== formula)
          .sort((x, y) => x.lapMs - y.lapMs || x.id - y.id);
        return { user: r.id, ms: mine[0].lapMs, id: mine[0].id };
      })
      .sort((x, y) => x.ms - y.ms || x.id - y.id)
      .map((r) => [r.user, r.ms])
      .slice(0, 100);
    for (const time_frame_days of [undefined, 30]) {
      const board = (
        await call('POST', '/api/boards', staff, {
          name: `Merge ${time_frame_days ?? 'all time'}`,
          calculation: 'TIME',
          track: track.id,
          group: group.id,
          ...(time_frame_days ? { time_frame_days } : {}),
        })
      ).json();
      expect(board.id, JSON.stringify(board)).toBeTypeOf('number');
      const got = (await call('GET', `/api/boards/${board.id}/results?count=100`, null)).json();
      expect(Array.isArray(got), JSON.stringify(got)).toBe(true);
      expect(got.map((r: { user: number; lap_ms: number }) => [r.user, r.lap_ms])).toEqual(
        expected,
      );
      const onlyB = (
        await call('GET', `/api/boards/${board.id}/results?count=5&car=${b}`, null)
      ).json();
      expect(onlyB.map((r: { car: number }) => r.car)).toEqual([b, b, b, b, b]);
      const notInGroup = await call(
        'GET',
        `/api/boards/${board.id}/results?count=5&car=${formula}`,
        null,
      );
      expect(notInGroup.json()).toEqual([]);
    }
  });
});

describe('POINTS boards', () => {
  it('rank racers by points from imported races', async () => {
    const board = (
      await call('POST', '/api/boards', staff, { name: 'Monza cup', calculation: 'POINTS' })
    ).json();
    const res = await call('GET', `/api/teams?board=${board.id}&approved=true&page_size=15`, null);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The AC race imported above: Andrea Sorlini won (25), the ACC race was won by Andrea Mel.
    expect(body.results[0]).toMatchObject({ rank: 1, points: 25 });
    expect(
      body.results
        .slice(0, 2)
        .map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual(['Andrea Mel', 'Andrea Sorlini'].sort());
    expect(body.results.length).toBeLessThanOrEqual(15);
  });
  it('give the pole bonus in the racer’s first race, whatever order the results were stored in', async () => {
    const { track, session, finish } = await ownTrack(t, 'Pole');
    const qualifying = await session('QUALIFY', 30);
    const first = await session('RACE', 20);
    const second = await session('RACE', 10);
    // Stored latest race first: the first race is not the first row read.
    await t.db.insert(raceResults).values(finish(second.id, 1));
    await t.db.insert(raceResults).values(finish(qualifying.id, 1, true));
    await t.db.insert(raceResults).values(finish(first.id, 10));
    const board = (
      await call('POST', '/api/boards', staff, {
        name: 'Pole cup',
        calculation: 'POINTS',
        track: track.id,
        points_rules: { ...DEFAULT_RULES, pole_bonus: 3, drop_worst: 1 },
      })
    ).json();
    const standings = (await call('GET', `/api/teams?board=${board.id}`, null)).json();
    // First race P10 (1) + pole (3) = 4, dropped as the worse round; second race P1 = 25.
    // The pole counted in the second race would give 28.
    expect(standings.results).toEqual([
      expect.objectContaining({ name: 'Pole Racer', points: 25 }),
    ]);
  });
  it('count a race without results as a round, and only the sessions of the board’s frame and sim', async () => {
    const { track, session, finish } = await ownTrack(t, 'Frame');
    await t.db.insert(raceResults).values(finish((await session('RACE', 3 * 24 * 60)).id, 1));
    await t.db.insert(raceResults).values(finish((await session('RACE', 20)).id, 1));
    await session('RACE', 10);
    const board = (
      await call('POST', '/api/boards', staff, {
        name: 'Frame cup',
        calculation: 'POINTS',
        track: track.id,
        sim: 'ac',
        time_frame_days: 1,
        points_rules: { ...DEFAULT_RULES, drop_worst: 1 },
      })
    ).json();
    const standings = (await call('GET', `/api/teams?board=${board.id}`, null)).json();
    // Two rounds in the last day (one without results), the worse one dropped: 25. Without the
    // empty round nothing would be kept (0); with the race of three days ago, 50.
    expect(standings.results).toEqual([
      expect.objectContaining({ name: 'Frame Racer', points: 25 }),
    ]);
  });
});

describe('linking a sim id', () => {
  it('is done in the profile; an id already linked to someone else is refused', async () => {
    const [ann, bob] = [await createUser(t), await createUser(t)];
    const link = (who: CreatedUser, sim_guid: string | null) =>
      call('PATCH', '/api/users/me', who, { sim_guid });
    const linked = await link(ann, '76561190000000001');
    expect(linked.statusCode).toBe(200);
    expect(linked.json().sim_guid).toBe('76561190000000001');
    const taken = await link(bob, '76561190000000001');
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ sim_guid: ['This sim id is linked to another racer.'] });
    expect((await link(ann, '')).json().sim_guid).toBeNull();
    expect((await link(bob, '76561190000000001')).statusCode).toBe(200);
  });
});

describe('partial updates', () => {
  it('change only the fields they name', async () => {
    const g = (await call('POST', '/api/groups', staff, { name: 'GT4 partial' })).json();
    const car = (
      await call('POST', '/api/cars', staff, {
        sim: 'ac',
        key: 'ks_partial_car',
        name: 'Partial',
        brand: 'Acme',
        groups: [g.id],
      })
    ).json();
    const renamed = (await call('PATCH', `/api/cars/${car.id}`, staff, { name: 'Renamed' })).json();
    expect(renamed).toMatchObject({ name: 'Renamed', brand: 'Acme', groups: [{ id: g.id }] });
    const board = (
      await call('POST', '/api/boards', staff, {
        name: 'Partial',
        calculation: 'POINTS',
        description: '<p>Keep me</p>',
        group: g.id,
      })
    ).json();
    const moved = (await call('PATCH', `/api/boards/${board.id}`, staff, { sort_order: 9 })).json();
    expect(moved).toMatchObject({
      sort_order: 9,
      description: '<p>Keep me</p>',
      group: g.id,
      active: true,
    });
    // An edit may not leave a TIME board without a track (a POINTS board needs none).
    const noTrack = await call('PATCH', `/api/boards/${board.id}`, staff, { calculation: 'TIME' });
    expect(noTrack.statusCode).toBe(400);
    expect(noTrack.json()).toHaveProperty('track');
    const deleted = await call('DELETE', `/api/boards/${board.id}`, staff);
    expect(deleted.statusCode).toBe(204);
    expect((await call('GET', `/api/boards/${board.id}`, staff)).statusCode).toBe(404);
  });
});

describe('an ACC race weekend', () => {
  it('matches `S` + Steam64 player ids to the racers’ Steam ids, and scores a second race (R2) and a Q2 as what they are', async () => {
    const mel = await createUser(t, { firstName: 'Andrea', lastName: 'Mel' });
    await t.db
      .update(users)
      .set({ simGuid: '76561197971070302', racerName: 'Mel the racer' })
      .where(eq(users.id, mel.id));
    const weekend = (type: string) =>
      Buffer.from(
        file('acc-race.json')
          .toString('utf16le')
          .replaceAll('"playerId": "123"', '"playerId": "S76561197971070302"')
          .replace('"sessionType": "R"', `"sessionType": "${type}"`),
        'utf16le',
      );
    const q2 = await importFile(weekend('Q2'));
    expect(q2.json()).toMatchObject({
      session: 'QUALIFY',
      already_imported: false,
      laps_added: 65,
      drivers_matched: 1,
    });
    const r2 = await importFile(weekend('R2'));
    expect(r2.json()).toMatchObject({ session: 'RACE', laps_added: 65, drivers_matched: 1 });
    const mine = (await call('GET', '/api/laps?page_size=100', mel)).json();
    // Andrea Mel's laps in the file, read by hand: 23 each session.
    expect(mine.count).toBe(2 * 23);
    const finishes = await t.db.execute<{ position: number; pole: boolean; kind: string }>(sql`
      select r.position, r.pole, s.kind from race_results r
      join race_sessions s on s.id = r.session_id where r.user_id = ${mel.id} order by s.id`);
    expect(finishes.rows).toEqual([
      { position: 1, pole: true, kind: 'QUALIFY' },
      { position: 1, pole: false, kind: 'RACE' },
    ]);
    // On a POINTS board the R2 win is hers, under her racer name.
    const board = (
      await call('POST', '/api/boards', staff, { name: 'ACC weekend', calculation: 'POINTS' })
    ).json();
    const standings = (
      await call('GET', `/api/teams?board=${board.id}&page_size=50`, null)
    ).json() as { results: { name: string; points: number }[] };
    expect(standings.results).toContainEqual(
      expect.objectContaining({ name: 'Mel the racer', points: 25 }),
    );
  });
});

describe('my progress', () => {
  it('has one point per session (a day in one car) by car: its best, its laps, a new best or not', async () => {
    const racer = await createUser(t);
    const [track] = await t.db
      .insert(tracks)
      .values({ sim: 'ac', key: `progress-${Date.now()}`, name: 'Progress Ring' })
      .returning();
    const [audi, bmw] = await t.db
      .insert(cars)
      .values(
        ['Audi', 'BMW'].map((name) => ({ sim: 'ac' as const, key: `${name}-${Date.now()}`, name })),
      )
      .returning();
    const day = (n: number, hour = 12) => DateTime.utc(2026, 3, n, hour).toJSDate();
    const rows: [car: number, at: Date, ms: number, valid?: boolean][] = [
      [audi.id, day(2), 101_000],
      [audi.id, day(2, 13), 100_500],
      [audi.id, day(2, 14), 90_000, false],
      [audi.id, day(5), 100_800],
      [audi.id, day(9), 99_000],
      [bmw.id, day(3), 105_000],
    ];
    await t.db.insert(laps).values(
      rows.map(([carId, recordedAt, lapMs, valid = true], i) => ({
        userId: racer.id,
        trackId: track.id,
        carId,
        sim: 'ac' as const,
        lapMs,
        recordedAt,
        valid,
        sourceKey: `progress:${racer.id}:${i}`,
      })),
    );
    const res = await call('GET', `/api/laps/progress?track=${track.id}`, racer);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .map(
          (p: {
            date: string;
            car_name: string;
            hms: string;
            laps: number;
            personal_best: boolean;
          }) => [p.car_name, p.date, p.hms, p.laps, p.personal_best],
        ),
    ).toEqual([
      ['Audi', '2026-03-02', '1:40.500', 2, true],
      ['Audi', '2026-03-05', '1:40.800', 1, false],
      ['Audi', '2026-03-09', '1:39.000', 1, true],
      ['BMW', '2026-03-03', '1:45.000', 1, true],
    ]);
    // Someone else's progress there is empty.
    expect((await call('GET', `/api/laps/progress?track=${track.id}`, staff)).json()).toEqual([]);
  });
});
