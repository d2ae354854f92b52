import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { users } from '../../db/schema/accounts';
import { cars, laps, raceResults, tracks } from '../../db/schema/laps';
import { LMU_RESULTS, R3E_RESULTS, RF2_RESULTS } from '../../test/fixtures';

let t: TestApp;
let staff: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['laps.change_lap', 'leaderboards.change_board'],
  });
});
afterAll(() => t.close());

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name));
const importFile = (body: Buffer, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/api/laps/import${query}`,
    headers: { ...bearer(staff.token), 'content-type': 'application/octet-stream' },
    payload: body,
  });
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });
const lapCount = async () =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from laps`)).rows[0].n;

describe('importing rFactor 2, Le Mans Ultimate and RaceRoom files', () => {
  it('imports a real rFactor 2 race once; its track and car join the catalogue as rFactor 2', async () => {
    const first = await importFile(read(RF2_RESULTS, 'race.xml'));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      sim: 'rf2',
      track: 'Sebring [Virtua_LM]',
      session: 'RACE',
      already_imported: false,
      laps_added: 50,
    });
    const again = await importFile(
      Buffer.concat([read(RF2_RESULTS, 'race.xml'), Buffer.from('\n')]),
    );
    expect(again.json()).toMatchObject({ already_imported: true, laps_added: 0 });
    const [track] = await t.db.select().from(tracks).where(eq(tracks.key, 'Sebring [Virtua_LM]'));
    expect(track).toMatchObject({ sim: 'rf2', name: 'Sebring [Virtua_LM] (Sebring 12h Course)' });
    const listed = (await call('GET', '/api/tracks?search=Sebring')).json();
    expect(listed.results[0]).toMatchObject({ sim: 'rf2', laps_count: 50 });
    const [car] = await t.db.select().from(cars).where(eq(cars.key, 'LolaT280'));
    expect(car).toMatchObject({ sim: 'rf2', name: 'LolaT280', needsReview: true });
  });

  it('gives an LMU driver’s laps and result to the racer with that Steam id', async () => {
    const ada = await createUser(t, { firstName: 'Ada', lastName: 'Lind' });
    await t.db.update(users).set({ simGuid: '76561198000000001' }).where(eq(users.id, ada.id));
    const res = await importFile(
      read(LMU_RESULTS, 'made-here-race-with-steam-ids.xml'),
      '?sim=lmu',
    );
    expect(res.json()).toMatchObject({ sim: 'lmu', laps_added: 4, drivers_matched: 1 });
    const mine = await t.db.select().from(laps).where(eq(laps.userId, ada.id));
    expect(mine.map((l) => l.lapMs).sort()).toEqual([106900, 107800]);
    expect(mine.every((l) => l.sim === 'lmu')).toBe(true);
    const [win] = await t.db
      .select()
      .from(raceResults)
      .where(and(eq(raceResults.userId, ada.id), eq(raceResults.position, 1)));
    expect(win).toBeDefined();
    const [track] = await t.db
      .select()
      .from(tracks)
      .where(and(eq(tracks.sim, 'lmu'), eq(tracks.key, 'Autodromo Nazionale Monza')));
    expect(track.name).toBe('Autodromo Nazionale Monza');
  });

  it('imports every session of a real RaceRoom file; laps the server did not count stay off the boards', async () => {
    const racer = await createUser(t);
    await t.db.update(users).set({ simGuid: '792057' }).where(eq(users.id, racer.id));
    const res = await importFile(read(R3E_RESULTS, 'qualify.with.invalid.laps.json'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      sim: 'r3e',
      track: 'Red Bull Ring Spielberg',
      session: 'PRACTICE, QUALIFY, RACE',
      already_imported: false,
      drivers_matched: 1,
    });
    const added = res.json().laps_added;
    expect(added).toBe(60 + 117);
    const again = await importFile(read(R3E_RESULTS, 'qualify.with.invalid.laps.json'));
    expect(again.json()).toMatchObject({ already_imported: true, laps_added: 0 });
    const invalid = await t.db
      .select()
      .from(laps)
      .where(and(eq(laps.sim, 'r3e'), eq(laps.valid, false)));
    expect(invalid.length).toBeGreaterThanOrEqual(35);
    // The board of that track ranks by valid laps only.
    const [track] = await t.db.select().from(tracks).where(eq(tracks.sim, 'r3e'));
    const board = (
      await call('POST', '/api/boards', { name: 'Spielberg', calculation: 'TIME', track: track.id })
    ).json();
    const entries = (await call('GET', `/api/boards/${board.id}/results?count=5`)).json();
    const mine = entries.find((e: { user: number }) => e.user === racer.id);
    const [best] = await t.db
      .execute<{ ms: number }>(
        sql`select min(lap_ms)::int as ms from laps where user_id = ${racer.id} and valid`,
      )
      .then((r) => r.rows);
    expect(mine.lap_ms).toBe(best.ms);
  });

  it('refuses a damaged XML file with a 400 on `file`, and an unknown sim with a 400 on `sim`', async () => {
    const before = await lapCount();
    const res = await importFile(read(RF2_RESULTS, 'race.xml').subarray(0, 500));
    expect(res.statusCode).toBe(400);
    expect(res.json().file[0]).toBeTruthy();
    const sim = await importFile(read(RF2_RESULTS, 'qualify.xml'), '?sim=iracing');
    expect(sim.statusCode).toBe(400);
    expect(sim.json().sim).toBeDefined();
    expect(await lapCount()).toBe(before);
  });
});

describe('boards per sim', () => {
  it('a POINTS board of one sim counts only that sim’s races; a board’s track must be of its sim', async () => {
    const all = (await call('POST', '/api/boards', { name: 'All', calculation: 'POINTS' })).json();
    const lmuOnly = (
      await call('POST', '/api/boards', { name: 'LMU nights', calculation: 'POINTS', sim: 'lmu' })
    ).json();
    expect(lmuOnly.sim).toBe('lmu');
    const names = async (id: number) =>
      (await call('GET', `/api/teams?board=${id}&approved=true&page_size=50`))
        .json()
        .results.map((r: { name: string }) => r.name);
    // The LMU race was won by Ada Lind's team; the rF2 and RaceRoom races count only on the other.
    expect(await names(lmuOnly.id)).toEqual(['Ferrari AF Corse', 'Porsche Penske']);
    expect((await names(all.id)).length).toBeGreaterThan(2);
    const [rf2Track] = await t.db.select().from(tracks).where(eq(tracks.sim, 'rf2'));
    const wrong = await call('POST', '/api/boards', {
      name: 'Mixed',
      calculation: 'TIME',
      track: rf2Track.id,
      sim: 'r3e',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().sim).toBeDefined();
    const changed = await call('PATCH', `/api/boards/${lmuOnly.id}`, { sim: null });
    expect(changed.json().sim).toBeNull();
    expect((await names(lmuOnly.id)).length).toBeGreaterThan(2);
  });
});

describe('a connection lost halfway through a file of several sessions', () => {
  it('stores none of its sessions; sent again, each session once', async () => {
    // The database ends the import's own connection as the file's third session is written:
    // the first two are written by then, in the same transaction.
    await t.db.execute(sql`
      create or replace function fault_end_connection() returns trigger language plpgsql as $$
      begin
        if new.file_sha like '%:2' then perform pg_terminate_backend(pg_backend_pid()); end if;
        return new;
      end $$`);
    await t.db.execute(sql`
      create trigger fault_end_connection before insert on race_sessions
      for each row execute function fault_end_connection()`);
    const sessions = async () =>
      (
        await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from race_sessions where track_id in
              (select id from tracks where sim = 'r3e' and key = 'Portimao Circuit')`,
        )
      ).rows[0].n;
    const bytes = read(R3E_RESULTS, 'log.with.race2.json');
    const before = await lapCount();
    try {
      const lost = await importFile(bytes);
      expect(lost.statusCode).toBe(503);
    } finally {
      await t.db.execute(sql`drop trigger fault_end_connection on race_sessions`);
      await t.db.execute(sql`drop function fault_end_connection()`);
    }
    expect(await sessions()).toBe(0);
    expect(await lapCount()).toBe(before);
    const again = await importFile(bytes);
    // 60 + 66 laps in the file, 5 of them with no time (read by hand).
    expect(again.json()).toMatchObject({ already_imported: false, laps_added: 121 });
    expect(await sessions()).toBe(3);
    expect((await importFile(bytes)).json()).toMatchObject({ already_imported: true });
  });
});
