import { eq } from 'drizzle-orm';
import type { TimingTower } from '@paddock/contract/live-timing';
import type { Db } from '../../db/client';
import { liveTimings } from '../../db/schema/live-timing';
import { raceEvents } from '../../db/schema/races';
import { NotFound } from '../../plugins/errors';

/** The event's tower as last written by the instance following its feed; 404 for no event. */
export async function currentTower(db: Db, eventId: number): Promise<TimingTower | null> {
  const [row] = await db
    .select({ event: raceEvents.id, tower: liveTimings.tower })
    .from(raceEvents)
    .leftJoin(liveTimings, eq(liveTimings.eventId, raceEvents.id))
    .where(eq(raceEvents.id, eventId));
  if (!row) throw new NotFound();
  return row.tower;
}
