import { and, eq, sql } from 'drizzle-orm';
import { cars, tracks, type Sim } from '../../db/schema/laps';
import type { Queryable } from '../../plugins/payments/charge-card';
import { ACC_CARS, readableName } from './results-files';

/** Sims whose files name content as people read it ("Portimao Circuit", "Saleen S7R"), not
 *  by a folder name (`ks_monza`): the name is the key as it is. */
const NAMED_KEYS = new Set<Sim>(['rf2', 'lmu', 'r3e']);

/**
 * The id of a track layout, added (flagged for review, with a readable name) when laps arrive
 * for one nobody has entered yet.
 */
export async function ensureTrack(db: Queryable, sim: Sim, key: string, layout: string) {
  const name = NAMED_KEYS.has(sim)
    ? layout
      ? `${key} (${layout})`
      : key
    : readableName(key, layout);
  await db
    .insert(tracks)
    .values({ sim, key, layout, name, needsReview: true })
    .onConflictDoNothing();
  const [row] = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(eq(tracks.sim, sim), eq(tracks.key, key), eq(tracks.layout, layout)));
  return row.id;
}

export async function ensureCar(db: Queryable, sim: Sim, key: string) {
  const known = sim === 'acc' ? Object.values(ACC_CARS).find((c) => c.key === key) : undefined;
  const name = known?.name ?? (NAMED_KEYS.has(sim) ? key : readableName(key));
  await db.insert(cars).values({ sim, key, name, needsReview: true }).onConflictDoNothing();
  const [row] = await db
    .select({ id: cars.id })
    .from(cars)
    .where(and(eq(cars.sim, sim), eq(cars.key, key)));
  return row.id;
}

/** Grace after a booking's end: the lap that was running when the time ran out still counts. */
export const LAP_GRACE_MINUTES = 15;

type LapOwnerQuestion = { calendarId: number | null; recordedAt: Date; guid: string };

/**
 * Who drove a lap: the customer whose reservation covered that seat at that time (or had just
 * ended): a lap driven on a seat during a booking is the booked customer's, whatever sim id the
 * rig's account carries (issue 42, decision 0120); else the racer whose sim id it carries. A
 * blackout or a cancelled booking gives the lap to nobody. The one rule for rig laps, the AC
 * server's live laps, and the laps and results of an imported file (decision 0081).
 */
export async function lapOwner(db: Queryable, opts: LapOwnerQuestion): Promise<number | null> {
  return lapOwners(db)(opts);
}

/**
 * `lapOwner` for many laps at once (an import): each sim id is looked up once, not once per
 * lap; the seat's booking is asked per lap, since it depends on the lap's time.
 */
export function lapOwners(db: Queryable) {
  const byGuid = new Map<string, number | null>();
  return async (opts: LapOwnerQuestion): Promise<number | null> => {
    if (opts.calendarId !== null) {
      const bySeat = await db.execute<{ user_id: number }>(sql`
        select user_id from reservations
        where calendar_id = ${opts.calendarId}
          and cancelled_at is null and not is_blackout and user_id is not null
          and time <= ${opts.recordedAt.toISOString()}::timestamptz
          and time > ${opts.recordedAt.toISOString()}::timestamptz
                     - make_interval(mins => ${30 + LAP_GRACE_MINUTES})
        order by time desc limit 1`);
      const booked = bySeat.rows[0]?.user_id;
      if (booked !== undefined) return booked;
    }
    if (!opts.guid) return null;
    let id = byGuid.get(opts.guid);
    if (id === undefined) {
      const found = await db.execute<{ id: number }>(
        sql`select id from users where sim_guid = ${opts.guid} and is_active`,
      );
      id = found.rows[0]?.id ?? null;
      byGuid.set(opts.guid, id);
    }
    return id;
  };
}
