import { asc, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Board, Lap, PointsEntry } from '@paddock/contract/laps';
import type { z } from 'zod';
import type { boardWrite } from '@paddock/contract/laps';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { boards, carGroups, cars, raceResults, tracks, type Sim } from '../../db/schema/laps';
import { NotFound, ValidationError } from '../../plugins/errors';
import { publishChange } from '../../plugins/changes';
import { flagUrl } from '../accounts/user-view';
import { sanitizePageHtml } from '../pages/sanitize-page-html';
import * as repo from './laps.repo';
import { computeSeason, type SeasonLookup } from './points-season';
import { GenerationMemo } from '../../lib/generation-memo';
import { preparedPer } from '../../db/prepared';

type BoardRow = typeof boards.$inferSelect & {
  trackName: string | null;
  trackSim: Sim | null;
  groupName: string | null;
};

function timeFramePretty(days: number | null): string {
  if (days === null) return '';
  if (days === 1) return 'Last 24 hours';
  if (days % 7 === 0 && days <= 28) return days === 7 ? 'Last week' : `Last ${days / 7} weeks`;
  return `Last ${days} days`;
}

function toBoard(row: BoardRow): Board {
  return {
    id: row.id,
    name: row.name,
    calculation: row.calculation,
    description: row.description,
    track: row.trackId,
    track_name: row.trackName,
    sim: row.sim,
    group: row.groupId,
    group_name: row.groupName,
    since: row.since,
    time_frame_days: row.timeFrameDays,
    time_frame_pretty: timeFramePretty(row.timeFrameDays),
    active: row.active,
    sort_order: row.sortOrder,
  };
}

const boardSelect = (db: Db) =>
  db
    .select({
      board: boards,
      trackName: tracks.name,
      trackSim: tracks.sim,
      groupName: carGroups.name,
    })
    .from(boards)
    .leftJoin(tracks, eq(tracks.id, boards.trackId))
    .leftJoin(carGroups, eq(carGroups.id, boards.groupId));

type BoardSelected = Awaited<ReturnType<ReturnType<typeof boardSelect>['execute']>>[number];

const boardRowOf = (r: BoardSelected): BoardRow => ({
  ...r.board,
  trackName: r.trackName,
  trackSim: r.trackSim,
  groupName: r.groupName,
});

async function boardRows(db: Db, where?: ReturnType<typeof eq>): Promise<BoardRow[]> {
  const rows = await boardSelect(db).where(where).orderBy(asc(boards.sortOrder), asc(boards.id));
  return rows.map(boardRowOf);
}

/** One board by id, prepared: every board's results call reads it first. */
const boardById = preparedPer((db: Db) =>
  boardSelect(db)
    .where(eq(boards.id, sql.placeholder('id')))
    .prepare('board_by_id'),
);

/** Boards for everyone: the active ones (staff managing boards see all with `all`). */
export async function listBoards(db: Db, includeInactive: boolean): Promise<Board[]> {
  return (await boardRows(db, includeInactive ? undefined : eq(boards.active, true))).map(toBoard);
}

export async function boardRow(db: Db, id: number, includeInactive = true): Promise<BoardRow> {
  const [found] = await boardById(db).execute({ id });
  const row = found && boardRowOf(found);
  if (!row || (!row.active && !includeInactive)) throw new NotFound();
  return row;
}

export async function getBoard(db: Db, id: number, includeInactive: boolean): Promise<Board> {
  return toBoard(await boardRow(db, id, includeInactive));
}

/**
 * Where a board's standings start: now minus its rolling frame (whole 24-hour days, so a frame
 * across a daylight-saving change is still 7 × 24 h), else its `since` date (from midnight UTC).
 */
export function boardStart(
  row: { timeFrameDays: number | null; since: string | null },
  now: Date,
): Date | null {
  if (row.timeFrameDays !== null) return new Date(now.getTime() - row.timeFrameDays * 86_400_000);
  if (row.since) return DateTime.fromISO(row.since, { zone: 'UTC' }).toJSDate();
  return null;
}

/**
 * Boards are read by every wall screen and phone far more often than laps arrive: answers are
 * kept for a second per instance, so a new lap shows within a second and a busy room costs one
 * query per board per second.
 */
const RESULTS_TTL_MS = 1000;
const RESULTS_MEMO_SIZE = 500;
/** A TIME board's answer: its JSON, encoded once for every request that is given it. */
type KeptResults = { body: Buffer };
const resultsMemo = new GenerationMemo<KeptResults>({
  max: RESULTS_MEMO_SIZE,
  ttlMs: RESULTS_TTL_MS,
});

/** After a lap or board changes on this instance: its boards answer afresh at once. */
export function forgetBoardResults() {
  resultsMemo.clear();
}

export type ResultsFilter = { carId?: number; tyre?: string };

const resultsKey = (id: number, count: number, includeInactive: boolean, filter: ResultsFilter) =>
  `${id}|${count}|${includeInactive}|${filter.carId ?? ''}|${filter.tyre ?? ''}`;

/**
 * The kept answer of `timeResultsJson`, when there is one: most requests of a busy room, served
 * without a promise.
 */
export function knownTimeResults(
  id: number,
  count: number,
  includeInactive: boolean,
  filter: ResultsFilter = {},
): Buffer | undefined {
  return resultsMemo.known(resultsKey(id, count, includeInactive, filter))?.body;
}

/**
 * A TIME board's entries (each racer's best valid lap, fastest first, ties to the earlier lap)
 * as JSON (UTF-8 bytes), kept with the answer: a wall of phones costs no serialising either.
 */
export async function timeResultsJson(
  db: Db,
  id: number,
  count: number,
  includeInactive: boolean,
  filter: ResultsFilter = {},
): Promise<Buffer> {
  const key = resultsKey(id, count, includeInactive, filter);
  const kept = await resultsMemo.get(key, async () => {
    const value = await computeTimeResults(db, id, count, includeInactive, new Date(), filter);
    return { body: Buffer.from(JSON.stringify(value)) };
  });
  return kept.body;
}

async function computeTimeResults(
  db: Db,
  id: number,
  count: number,
  includeInactive: boolean,
  now: Date,
  filter: ResultsFilter,
): Promise<Lap[]> {
  const row = await boardRow(db, id, includeInactive);
  if (row.calculation !== 'TIME' || row.trackId === null) return [];
  // A track is one sim's: a board of another sim has none of its laps.
  if (row.sim !== null && row.trackSim !== row.sim) return [];
  const rows = await repo.boardBests(db, {
    trackId: row.trackId,
    groupId: row.groupId,
    since: boardStart(row, now),
    count,
    ...filter,
  });
  return rows.map((r, i) => repo.toLap(r, i + 1, id));
}

/** Finishes as a board shows their racers: the name and car raced under, the account's flag. */
const shownAsQuery = preparedPer((db: Db) =>
  db
    .select({
      id: raceResults.id,
      driverName: raceResults.driverName,
      car: cars.name,
      racerName: users.racerName,
      flag: users.flagCode,
    })
    .from(raceResults)
    .innerJoin(cars, eq(cars.id, raceResults.carId))
    .leftJoin(users, eq(users.id, raceResults.userId))
    .where(sql`${raceResults.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('points_shown_as'),
);

/**
 * A page of a POINTS board's standings from imported race results on its track (any track when
 * none) since its start: teams of racers (a racer without a team stands alone), by the board's
 * rules. The ranking reads the season's results alone (kept per board by `seasons`, the
 * StandingsCache's lookup, until race results change); the racers' names and flags are read for
 * the page's entries only (a chain's season has two thousand finishers, issue 33).
 */
export async function pointsStandings(
  db: Db,
  id: number,
  includeInactive: boolean,
  page: { page: number; page_size: number },
  now = new Date(),
  seasons: SeasonLookup = async (_id, _signature, _now, compute) => (await compute()).season,
): Promise<{ count: number; results: PointsEntry[] }> {
  const row = await boardRow(db, id, includeInactive);
  if (row.calculation !== 'POINTS') return { count: 0, results: [] };
  const of = {
    track: row.trackId,
    sim: row.sim,
    start: boardStart(row, now),
    timeFrameDays: row.timeFrameDays,
    rules: row.pointsRules,
  };
  // What the season is ranked by, but for its start (a rolling frame's moves with `now`).
  const signature = JSON.stringify([of.track, of.sim, row.since, of.timeFrameDays, of.rules]);
  const { standings, latest } = await seasons(row.id, signature, now, () => computeSeason(db, of));
  const shown = standings.slice((page.page - 1) * page.page_size, page.page * page.page_size);
  // The page's racers as shown: their latest finish's name and car, their account's racer name
  // and flag; read for the page only (a chain's season has two thousand finishers).
  const ids = [...new Set(shown.flatMap((s) => s.members.map((m) => latest.get(m)!)))];
  const shownAs = new Map(
    (ids.length === 0 ? [] : await shownAsQuery(db).execute({ ids })).map((r) => [r.id, r]),
  );
  const as = (key: string) => shownAs.get(latest.get(key)!);
  const nameOf = (key: string) => as(key)?.racerName || as(key)?.driverName || key;
  return {
    count: standings.length,
    results: shown.map((s) => {
      const lead = as(s.members[0]);
      const solo = s.members.length === 1 && s.name === s.members[0];
      return {
        rank: s.rank,
        name: solo ? nameOf(s.name) : s.name,
        points: s.points,
        car: lead?.car ?? '',
        flag_url: flagUrl(lead?.flag ?? ''),
        members: s.members.map(nameOf),
      };
    }),
  };
}

type BoardWrite = z.infer<typeof boardWrite>;

/**
 * `current`: the board being changed, whose kind, track and sim stand where the body names none.
 */
async function checkRefs(db: Db, body: Partial<BoardWrite>, current?: BoardRow) {
  const trackId = body.track !== undefined ? body.track : (current?.trackId ?? null);
  const boardSim = body.sim !== undefined ? body.sim : (current?.sim ?? null);
  // On an edit too: a TIME board that loses its track has nothing to rank.
  if ((body.calculation ?? current?.calculation) === 'TIME' && trackId === null)
    throw ValidationError.field('track', 'A TIME board needs a track.');
  if (trackId !== null) {
    const [t] = await db
      .select({ id: tracks.id, sim: tracks.sim })
      .from(tracks)
      .where(eq(tracks.id, trackId));
    if (!t)
      throw ValidationError.field('track', `Invalid pk "${trackId}" - object does not exist.`);
    if (boardSim !== null && t.sim !== boardSim)
      throw ValidationError.field('sim', "The board's track belongs to another sim.");
  }
  if (body.group != null) {
    const [g] = await db
      .select({ id: carGroups.id })
      .from(carGroups)
      .where(eq(carGroups.id, body.group));
    if (!g)
      throw ValidationError.field('group', `Invalid pk "${body.group}" - object does not exist.`);
  }
}

const boardValues = (body: Partial<BoardWrite>) =>
  Object.fromEntries(
    Object.entries({
      name: body.name,
      calculation: body.calculation,
      description: body.description === undefined ? undefined : sanitizePageHtml(body.description),
      trackId: body.track,
      sim: body.sim,
      groupId: body.group,
      since: body.since,
      timeFrameDays: body.time_frame_days,
      active: body.active,
      sortOrder: body.sort_order,
      pointsRules: body.points_rules,
    }).filter(([, v]) => v !== undefined),
  );

export async function createBoard(db: Db, body: BoardWrite): Promise<Board> {
  await checkRefs(db, body);
  await publishChange(db, 'boards', null);
  const [row] = await db
    .insert(boards)
    .values(boardValues(body) as unknown as typeof boards.$inferInsert)
    .returning({ id: boards.id });
  return getBoard(db, row.id, true);
}

export async function updateBoard(db: Db, id: number, body: Partial<BoardWrite>): Promise<Board> {
  const current = await boardRow(db, id);
  await checkRefs(db, body, current);
  const values = boardValues(body);
  if (Object.keys(values).length) {
    await db.update(boards).set(values).where(eq(boards.id, id));
    forgetBoardResults();
    await publishChange(db, 'boards', id);
  }
  return getBoard(db, id, true);
}

export async function deleteBoard(db: Db, id: number): Promise<void> {
  const rows = await db.delete(boards).where(eq(boards.id, id)).returning({ id: boards.id });
  if (rows.length === 0) throw new NotFound();
  await publishChange(db, 'boards', id);
}
