import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { ownTrack } from '../../test/race-results';
import { answerUntil } from '../../test/requests';
import { boards, raceResults } from '../../db/schema/laps';
import { ChangeFeed } from '../../plugins/changes';
import { endChangeFeedConnection } from '../../test/change-feed';
import { DEFAULT_RULES } from './points';
import { pointsStandings } from './boards.service';
import { StandingsCache } from './standings-cache';

// Decision 0109: a POINTS board's season is ranked once and kept until race results change,
// whatever wrote them; these tests write them as psql would, past the API.

let t: TestApp;
let staff: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true, permissions: ['leaderboards.change_board'] });
});
afterAll(() => t.close());

const standings = async (board: number) => {
  const res = await t.app.inject({ url: `/api/teams?board=${board}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { results: { name: string; points: number }[] }).results.map(
    (r) => `${r.name} ${r.points}`,
  );
};
const newBoard = async (track: number, extra: object = {}) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/boards',
      headers: bearer(staff.token),
      payload: { name: `Cup ${track}`, calculation: 'POINTS', track, ...extra },
    })
  ).json() as { id: number };

describe('a POINTS board’s kept season', () => {
  it('shows a race written straight to the tables at once', async () => {
    const { track, session, finish, finished } = await ownTrack(t, 'Kept');
    await finished(finish((await session('RACE', 30)).id, 1, false, 'Ann'));
    const board = await newBoard(track.id);
    expect(await standings(board.id)).toEqual(['Ann 25']);
    expect(await standings(board.id)).toEqual(['Ann 25']);
    const next = await session('RACE', 10);
    await finished(finish(next.id, 1, false, 'Bo'), finish(next.id, 2, false, 'Ann'));
    expect(await standings(board.id)).toEqual(['Ann 43', 'Bo 25']);
    // A result changed in place (a user's deletion sets their results' user to null).
    await t.db.update(raceResults).set({ position: 3 }).where(eq(raceResults.sessionId, next.id));
    expect(await standings(board.id)).toEqual(['Ann 40', 'Bo 15']);
  });

  it('ranks again when the board’s rules change', async () => {
    const { track, session, finish, finished } = await ownTrack(t, 'Rules');
    await finished(finish((await session('RACE', 30)).id, 2, false, 'Cy'));
    const board = await newBoard(track.id);
    expect(await standings(board.id)).toEqual(['Cy 18']);
    await t.db
      .update(boards)
      .set({ pointsRules: { ...DEFAULT_RULES, table: [10, 9] } })
      .where(eq(boards.id, board.id));
    expect(await standings(board.id)).toEqual(['Cy 9']);
  });

  it('lets a rolling frame’s oldest race leave when its time comes', async () => {
    const { track, session, finish, finished } = await ownTrack(t, 'Rolling');
    await finished(finish((await session('RACE', 23 * 60)).id, 1, false, 'Di'));
    await finished(finish((await session('RACE', 60)).id, 2, false, 'Di'));
    const board = await newBoard(track.id, { time_frame_days: 1 });
    const feed = new ChangeFeed(t.deps.database.url);
    await feed.start();
    const cache = new StandingsCache(feed);
    const at = async (hoursLater: number) =>
      (
        await pointsStandings(
          t.db,
          board.id,
          false,
          { page: 1, page_size: 25 },
          new Date(Date.now() + hoursLater * 3_600_000),
          cache.lookup(async () => true),
        )
      ).results.map((r) => `${r.name} ${r.points}`);
    expect(await at(0)).toEqual(['Di 43']);
    expect(await at(0.5)).toEqual(['Di 43']);
    // Two hours on, the race of 23 hours ago is out of the last day.
    expect(await at(2)).toEqual(['Di 18']);
    await feed.stop();
  });

  it('forgets every kept season when the change feed loses its connection', async () => {
    const { track, session, finish, finished } = await ownTrack(t, 'Lost');
    await finished(finish((await session('RACE', 30)).id, 1, false, 'Ed'));
    const board = await newBoard(track.id);
    expect(await standings(board.id)).toEqual(['Ed 25']);
    await endChangeFeedConnection(t);
    // Written while nobody listens (the listener comes back after 250 ms): never heard.
    await answerUntil(t.app, '/api/ready', (res) => res.statusCode === 503);
    await finished(finish((await session('RACE', 10)).id, 1, false, 'Ed'));
    // Once the listener is back (ready again), the kept season must not be taken as current.
    await answerUntil(t.app, '/api/ready', (res) => res.statusCode === 200);
    expect(await standings(board.id)).toEqual(['Ed 50']);
  });
});
