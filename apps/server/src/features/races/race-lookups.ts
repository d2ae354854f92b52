// What the race screens look up: assists, skins, drivers, the caller's location.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  ASSIST_NAMES,
  ASSISTS,
  DRIVERS_MAX,
  type Assist,
  type Driver,
  type Skin,
} from '@paddock/contract/races';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { skins } from '../../db/schema/laps';
import { displayNameSql } from '../../lib/display-name-sql';
import { containsPattern } from '../../lib/sql-text';
import { paginate } from '../../plugins/pagination';

export const listAssists = (): Assist[] => ASSISTS.map((id) => ({ id, name: ASSIST_NAMES[id] }));

export function listSkins(
  db: Db,
  query: PaginationQuery & { car?: number; search?: string },
): Promise<Paginated<Skin>> {
  const filters = and(
    query.car === undefined ? undefined : eq(skins.carId, query.car),
    query.search ? sql`${skins.name} ilike ${containsPattern(query.search)}` : undefined,
  );
  return paginate(
    query,
    async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(skins)
          .where(filters)
      )[0].n,
    async (limit, offset) =>
      (
        await db
          .select()
          .from(skins)
          .where(filters)
          .orderBy(asc(skins.name), asc(skins.id))
          .limit(limit)
          .offset(offset)
      ).map((s) => ({ id: s.id, car: s.carId, key: s.key, name: s.name })),
  );
}

/** The caller's own location (the parties page's default). */
export async function locationOf(db: Db, userId: number): Promise<number | null> {
  const [row] = await db
    .select({ locationId: users.locationId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.locationId ?? null;
}

/** Active, undeleted users whose name, racer name or e-mail holds every word, by name. */
export async function searchDrivers(db: Db, search: string | undefined): Promise<Driver[]> {
  const words = (search ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
  const name = displayNameSql(users);
  const rows = await db
    .select({ id: users.id, name, racerName: users.racerName })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.deletedAt),
        ...words.map(
          (w) =>
            sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.racerName} || ' ' || ${users.email}) ilike ${containsPattern(w)}`,
        ),
      ),
    )
    .orderBy(asc(name), asc(users.id))
    .limit(DRIVERS_MAX);
  return rows.map((r) => ({ id: r.id, name: r.name ?? '', racer_name: r.racerName }));
}
