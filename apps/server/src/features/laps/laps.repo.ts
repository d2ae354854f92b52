import { and, asc, desc, eq, gte, ilike, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Lap } from '@paddock/contract/laps';
import { formatLapTime, SIM_NAMES } from '@paddock/contract/laps';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { carGroupMembers, cars, laps, personalBests, tracks } from '../../db/schema/laps';
import type { Queryable } from '../../plugins/payments/charge-card';
import { flagUrl } from '../accounts/user-view';
import { containsPattern } from '../../lib/sql-text';

const displayName = sql<string>`coalesce(
  nullif(${users.racerName}, ''),
  nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''),
  nullif(${users.email}, ''),
  nullif(${laps.driverName}, ''),
  'Unknown driver')`;

export const lapColumns = {
  id: laps.id,
  lapMs: laps.lapMs,
  trackId: laps.trackId,
  trackName: tracks.name,
  carId: laps.carId,
  carName: cars.name,
  valid: laps.valid,
  invalidReason: laps.invalidReason,
  tyre: laps.tyre,
  fuel: laps.fuel,
  ballastKg: laps.ballastKg,
  sim: laps.sim,
  recordedAt: laps.recordedAt,
  userId: laps.userId,
  displayName,
  social: sql<string>`coalesce(${users.socialInstagram}, '')`,
  flagCode: sql<string>`coalesce(${users.flagCode}, '')`,
};
/** Laps with their track, car and racer, ready for `toLap`. */
export const selectLaps = (db: Queryable) =>
  db
    .select(lapColumns)
    .from(laps)
    .innerJoin(tracks, eq(tracks.id, laps.trackId))
    .innerJoin(cars, eq(cars.id, laps.carId))
    .leftJoin(users, eq(users.id, laps.userId));
export type LapRow = Awaited<ReturnType<typeof selectLaps>>[number];

export function toLap(row: LapRow, rank: number | null = null, board: number | null = null): Lap {
  return {
    id: row.id,
    rank,
    hms: formatLapTime(row.lapMs),
    lap_ms: row.lapMs,
    track: row.trackId,
    track_name: row.trackName,
    car: row.carId,
    car_name: row.carName,
    approved: row.valid,
    invalid_reason: row.invalidReason,
    tire: row.tyre,
    fuel: row.fuel,
    ballast: row.ballastKg,
    sim_name: SIM_NAMES[row.sim],
    created: row.recordedAt.toISOString(),
    user: row.userId,
    board,
    display_name: row.displayName,
    display_social: row.social,
    flag_url: flagUrl(row.flagCode),
  };
}

export type LapFilter = {
  userId?: number;
  validOnly?: boolean;
  search?: string;
  trackId?: number;
  groupId?: number;
};

export function lapConditions(f: LapFilter): SQL | undefined {
  const words = (f.search ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
  return and(
    f.userId === undefined ? undefined : eq(laps.userId, f.userId),
    f.validOnly ? eq(laps.valid, true) : undefined,
    f.trackId === undefined ? undefined : eq(laps.trackId, f.trackId),
    f.groupId === undefined ? undefined : inArray(laps.carId, carsInGroup(f.groupId)),
    ...words.map((w) => {
      const like = containsPattern(w);
      return or(ilike(tracks.name, like), ilike(cars.name, like));
    }),
  );
}

export const carsInGroup = (groupId: number) =>
  sql`(select ${carGroupMembers.carId} from ${carGroupMembers} where ${carGroupMembers.groupId} = ${groupId})`;

export async function countLaps(db: Db, f: LapFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(laps)
    .innerJoin(tracks, eq(tracks.id, laps.trackId))
    .innerJoin(cars, eq(cars.id, laps.carId))
    .where(lapConditions(f));
  return row.n;
}

export function pageLaps(db: Db, f: LapFilter, ranked: boolean, limit: number, offset: number) {
  return selectLaps(db)
    .where(lapConditions(f))
    .orderBy(
      ...(ranked
        ? [asc(laps.lapMs), asc(laps.recordedAt), asc(laps.id)]
        : [desc(laps.recordedAt), desc(laps.id)]),
    )
    .limit(limit)
    .offset(offset);
}

/**
 * Recomputes one racer's best valid lap on a track in a car (after an insert, an invalidation,
 * a reassignment); one index read (`laps_personal_best`).
 */
export async function refreshPersonalBest(
  db: Queryable,
  userId: number,
  trackId: number,
  carId: number,
): Promise<void> {
  const [best] = await db
    .select({ id: laps.id, lapMs: laps.lapMs, recordedAt: laps.recordedAt })
    .from(laps)
    .where(
      and(
        eq(laps.userId, userId),
        eq(laps.trackId, trackId),
        eq(laps.carId, carId),
        eq(laps.valid, true),
      ),
    )
    .orderBy(asc(laps.lapMs), asc(laps.recordedAt), asc(laps.id))
    .limit(1);
  const key = and(
    eq(personalBests.userId, userId),
    eq(personalBests.trackId, trackId),
    eq(personalBests.carId, carId),
  );
  if (!best) {
    await db.delete(personalBests).where(key);
    return;
  }
  await db
    .insert(personalBests)
    .values({
      userId,
      trackId,
      carId,
      lapId: best.id,
      lapMs: best.lapMs,
      recordedAt: best.recordedAt,
    })
    .onConflictDoUpdate({
      target: [personalBests.userId, personalBests.trackId, personalBests.carId],
      set: { lapId: best.id, lapMs: best.lapMs, recordedAt: best.recordedAt },
    });
}

/** Rows read per step while walking a board's index in time order. */
const BOARD_STEP = 200;

/**
 * A TIME board: each racer's best valid lap on the track with a car of the group, since
 * `since` (null: all time); ties go to the earlier lap. Walks an index in lap-time order and
 * keeps each racer's first row until `count` racers are found, so the work grows with the
 * board's length, not with the number of laps: all-time boards walk the personal-best table
 * (`personal_bests_board`), boards with a start walk the laps (`laps_track_time`); a board of
 * a car group walks each car's range (`personal_bests_board_car`, `laps_track_car_time`).
 */
export async function boardBests(
  db: Db,
  opts: {
    trackId: number;
    groupId: number | null;
    since: Date | null;
    count: number;
    carId?: number;
    tyre?: string;
  },
): Promise<LapRow[]> {
  // Personal bests know no tyre: a tyre filter walks the laps.
  const fromBests = opts.since === null && opts.tyre === undefined;
  const t = fromBests
    ? {
        id: personalBests.lapId,
        user: personalBests.userId,
        ms: personalBests.lapMs,
        at: personalBests.recordedAt,
        track: personalBests.trackId,
        car: personalBests.carId,
      }
    : {
        id: laps.id,
        user: laps.userId,
        ms: laps.lapMs,
        at: laps.recordedAt,
        track: laps.trackId,
        car: laps.carId,
      };
  const table = fromBests ? personalBests : laps;
  // The group's cars as a list read first, each then walked in its own index range.
  const carIds =
    opts.groupId === null
      ? null
      : (
          await db
            .select({ id: carGroupMembers.carId })
            .from(carGroupMembers)
            .where(eq(carGroupMembers.groupId, opts.groupId))
        ).map((r) => r.id);
  // The cars the board takes (null: any car); a car filter narrows the group to that car.
  const cars =
    opts.carId === undefined
      ? carIds
      : carIds === null || carIds.includes(opts.carId)
        ? [opts.carId]
        : [];
  if (cars?.length === 0) return [];
  const seen = new Set<number>();
  const chosen: number[] = [];
  let after: { ms: number; at: Date; id: number } | null = null;
  while (chosen.length < opts.count) {
    const where = and(
      eq(t.track, opts.trackId),
      fromBests
        ? undefined
        : and(
            eq(laps.valid, true),
            isNotNull(laps.userId),
            opts.since === null ? undefined : gte(laps.recordedAt, opts.since),
            opts.tyre === undefined ? undefined : eq(laps.tyre, opts.tyre),
          ),
      after === null
        ? undefined
        : sql`(${t.ms}, ${t.at}, ${t.id}) > (${after.ms}, ${after.at.toISOString()}::timestamptz, ${after.id})`,
    );
    type Step = { id: number; user: number | null; ms: number; at: Date };
    const rows: Step[] =
      cars === null
        ? await db
            .select({ id: t.id, user: t.user, ms: t.ms, at: t.at })
            .from(table)
            .where(where)
            .orderBy(asc(t.ms), asc(t.at), asc(t.id))
            .limit(BOARD_STEP)
        : // A group's cars one index range each (…_board_car, laps_track_car_time), merged: the
          // track's time order alone would pass every faster car's laps first.
          (
            await db.execute<Step>(sql`
              select x.* from unnest(${`{${cars.join(',')}}`}::int[]) as c(car)
              cross join lateral (
                select ${t.id} as id, ${t.user} as "user", ${t.ms} as ms, ${t.at} as at
                from ${table} where ${where} and ${t.car} = c.car
                order by ${t.ms}, ${t.at}, ${t.id} limit ${BOARD_STEP}
              ) x
              order by x.ms, x.at, x.id limit ${BOARD_STEP}`)
          ).rows.map((r) => ({ ...r, at: new Date(r.at) })); // raw rows keep times as text
    for (const row of rows) {
      if (row.user === null || seen.has(row.user)) continue;
      seen.add(row.user);
      chosen.push(row.id);
      if (chosen.length === opts.count) break;
    }
    if (rows.length < BOARD_STEP) break;
    const last = rows[rows.length - 1];
    after = { ms: last.ms, at: last.at, id: last.id };
  }
  if (chosen.length === 0) return [];
  const full = await selectLaps(db).where(inArray(laps.id, chosen));
  const order = new Map(chosen.map((id, i) => [id, i]));
  return full.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}
