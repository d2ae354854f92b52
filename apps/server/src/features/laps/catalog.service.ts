import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Car, Group, Track } from '@paddock/contract/laps';
import { formatLapTime } from '@paddock/contract/laps';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { carGroupMembers, carGroups, cars, laps, tracks, type Sim } from '../../db/schema/laps';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import { POPULAR_DAYS } from './laps.service';
import { isUniqueViolation as isUnique } from '../../lib/pg-errors';
import { containsPattern as like } from '../../lib/sql-text';

const wordsOf = (search?: string) => (search ?? '').split(/\s+/).filter(Boolean).slice(0, 5);

type TrackRow = typeof tracks.$inferSelect;

async function trackViews(db: Db, rows: TrackRow[]): Promise<Track[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const counts = await db.execute<{ track_id: number; n: number }>(sql`
    select track_id, count(*)::int as n from laps
    where track_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) group by track_id`);
  const records = await db.execute<{
    track_id: number;
    lap_ms: number;
    who: string;
    car: string;
  }>(sql`
    select distinct on (l.track_id) l.track_id, l.lap_ms, c.name as car,
      coalesce(nullif(u.racer_name, ''), nullif(trim(u.first_name || ' ' || u.last_name), ''),
               nullif(l.driver_name, ''), 'Unknown driver') as who
    from laps l join cars c on c.id = l.car_id left join users u on u.id = l.user_id
    where l.valid and l.track_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by l.track_id, l.lap_ms, l.recorded_at`);
  const countOf = new Map(counts.rows.map((r) => [r.track_id, r.n]));
  const recordOf = new Map(records.rows.map((r) => [r.track_id, r]));
  return rows.map((r) => {
    const record = recordOf.get(r.id);
    return {
      id: r.id,
      sim: r.sim,
      key: r.key,
      layout: r.layout,
      name: r.name,
      country: r.country,
      length_m: r.lengthM,
      needs_review: r.needsReview,
      laps_count: countOf.get(r.id) ?? 0,
      laps_record_hms: record ? formatLapTime(record.lap_ms) : null,
      laps_record_user: record?.who ?? null,
      laps_record_car: record?.car ?? null,
    };
  });
}

/** `/tracks`: by name when searching; by popularity (laps in the last 90 days) otherwise. */
export async function listTracks(
  db: Db,
  query: PaginationQuery & { search?: string },
): Promise<Paginated<Track>> {
  const words = wordsOf(query.search);
  const where = and(
    ...words.map((w) => or(ilike(tracks.name, like(w)), ilike(tracks.key, like(w)))),
  );
  const popularity = sql`(select count(*) from ${laps} where ${laps.trackId} = ${tracks.id}
    and ${laps.recordedAt} > now() - make_interval(days => ${POPULAR_DAYS}))`;
  const page = await paginate(
    query,
    async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(tracks)
          .where(where)
      )[0].n,
    (limit, offset) =>
      db
        .select()
        .from(tracks)
        .where(where)
        .orderBy(
          ...(words.length ? [asc(tracks.name)] : [sql`${popularity} desc`, asc(tracks.name)]),
          asc(tracks.id),
        )
        .limit(limit)
        .offset(offset),
  );
  return { ...page, results: await trackViews(db, page.results) };
}

export async function getTrack(db: Db, id: number): Promise<Track> {
  const rows = await db.select().from(tracks).where(eq(tracks.id, id));
  if (!rows[0]) throw new NotFound();
  return (await trackViews(db, rows))[0];
}

type CarRow = typeof cars.$inferSelect;

async function carViews(db: Db, rows: CarRow[]): Promise<Car[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const groups = await db
    .select({ carId: carGroupMembers.carId, id: carGroups.id, name: carGroups.name })
    .from(carGroupMembers)
    .innerJoin(carGroups, eq(carGroups.id, carGroupMembers.groupId))
    .where(inArray(carGroupMembers.carId, ids))
    .orderBy(asc(carGroups.name));
  const time = await db
    .select({ carId: laps.carId, ms: sql<string>`sum(${laps.lapMs})` })
    .from(laps)
    .where(inArray(laps.carId, ids))
    .groupBy(laps.carId);
  const msOf = new Map(time.map((t) => [t.carId, Number(t.ms)]));
  return rows.map((r) => ({
    id: r.id,
    sim: r.sim,
    key: r.key,
    name: r.name,
    brand: r.brand,
    car_class: r.carClass,
    needs_review: r.needsReview,
    groups: groups.filter((g) => g.carId === r.id).map(({ id, name }) => ({ id, name })),
    total_time_seconds: Math.round((msOf.get(r.id) ?? 0) / 1000),
  }));
}

export async function listCars(
  db: Db,
  query: PaginationQuery & { search?: string; groups?: number[] },
): Promise<Paginated<Car>> {
  const words = wordsOf(query.search);
  const where = and(
    ...words.map((w) => or(ilike(cars.name, like(w)), ilike(cars.brand, like(w)))),
    query.groups?.length
      ? inArray(
          cars.id,
          db
            .select({ id: carGroupMembers.carId })
            .from(carGroupMembers)
            .where(inArray(carGroupMembers.groupId, query.groups)),
        )
      : undefined,
  );
  const page = await paginate(
    query,
    async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(cars)
          .where(where)
      )[0].n,
    (limit, offset) =>
      db
        .select()
        .from(cars)
        .where(where)
        .orderBy(asc(cars.name), asc(cars.id))
        .limit(limit)
        .offset(offset),
  );
  return { ...page, results: await carViews(db, page.results) };
}

export async function getCar(db: Db, id: number): Promise<Car> {
  const rows = await db.select().from(cars).where(eq(cars.id, id));
  if (!rows[0]) throw new NotFound();
  return (await carViews(db, rows))[0];
}

export async function listGroups(db: Db): Promise<Group[]> {
  return db
    .select({ id: carGroups.id, name: carGroups.name })
    .from(carGroups)
    .orderBy(asc(carGroups.name));
}

export async function createTrack(
  db: Db,
  body: {
    sim: Sim;
    key: string;
    layout: string;
    name: string;
    country: string;
    length_m: number | null;
  },
): Promise<Track> {
  try {
    const [row] = await db
      .insert(tracks)
      .values({ ...body, lengthM: body.length_m })
      .returning({ id: tracks.id });
    return getTrack(db, row.id);
  } catch (e) {
    if (isUnique(e)) throw ValidationError.field('key', 'This track layout already exists.');
    throw e;
  }
}

export async function updateTrack(
  db: Db,
  id: number,
  body: { name?: string; country?: string; length_m?: number | null; needs_review?: boolean },
): Promise<Track> {
  const changes = Object.fromEntries(
    Object.entries({
      name: body.name,
      country: body.country,
      lengthM: body.length_m,
      needsReview: body.needs_review,
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(changes).length) await db.update(tracks).set(changes).where(eq(tracks.id, id));
  return getTrack(db, id);
}

async function setCarGroups(db: Db, carId: number, groupIds: number[]) {
  const known = groupIds.length
    ? await db.select({ id: carGroups.id }).from(carGroups).where(inArray(carGroups.id, groupIds))
    : [];
  const missing = groupIds.find((g) => !known.some((k) => k.id === g));
  if (missing !== undefined)
    throw ValidationError.field('groups', `Invalid pk "${missing}" - object does not exist.`);
  await db.delete(carGroupMembers).where(eq(carGroupMembers.carId, carId));
  if (groupIds.length)
    await db
      .insert(carGroupMembers)
      .values([...new Set(groupIds)].map((groupId) => ({ carId, groupId })));
}

export async function createCar(
  db: Db,
  body: { sim: Sim; key: string; name: string; brand: string; car_class: string; groups: number[] },
): Promise<Car> {
  let id: number;
  try {
    [{ id }] = await db
      .insert(cars)
      .values({
        sim: body.sim,
        key: body.key,
        name: body.name,
        brand: body.brand,
        carClass: body.car_class,
      })
      .returning({ id: cars.id });
  } catch (e) {
    if (isUnique(e)) throw ValidationError.field('key', 'This car already exists.');
    throw e;
  }
  await setCarGroups(db, id, body.groups);
  return getCar(db, id);
}

export async function updateCar(
  db: Db,
  id: number,
  body: {
    name?: string;
    brand?: string;
    car_class?: string;
    groups?: number[];
    needs_review?: boolean;
  },
): Promise<Car> {
  await getCar(db, id);
  const changes = Object.fromEntries(
    Object.entries({
      name: body.name,
      brand: body.brand,
      carClass: body.car_class,
      needsReview: body.needs_review,
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(changes).length) await db.update(cars).set(changes).where(eq(cars.id, id));
  if (body.groups) await setCarGroups(db, id, body.groups);
  return getCar(db, id);
}

export async function createGroup(db: Db, name: string): Promise<Group> {
  try {
    const [row] = await db.insert(carGroups).values({ name }).returning();
    return row;
  } catch (e) {
    if (isUnique(e)) throw ValidationError.field('name', 'A group with this name already exists.');
    throw e;
  }
}
