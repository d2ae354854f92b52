import { and, eq, gte, isNull, lte } from 'drizzle-orm';
import { SLOT_MINUTES } from '@paddock/contract/calendars';
import { reservations } from '../../db/schema/booking';
import type { Queryable } from '../../plugins/payments/charge-card';

const SLOT_MS = SLOT_MINUTES * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * The rest of a booking's run: the same customer's live half-hours next to it, one after the
 * other, on its seat (what the seat type's minimum counts, decision 0089), in time order. A run
 * moving together (`run` on a move, decision 0112) takes them all along; `laterOnly`, only those
 * after it (the rest of a session, decision 0127).
 */
export async function runMates(
  db: Queryable,
  row: { id: number; userId: number | null; calendarId: number; time: Date },
  laterOnly = false,
): Promise<number[]> {
  if (row.userId === null) return [];
  const near = await db
    .select({ id: reservations.id, time: reservations.time })
    .from(reservations)
    .where(
      and(
        eq(reservations.userId, row.userId),
        eq(reservations.calendarId, row.calendarId),
        isNull(reservations.cancelledAt),
        eq(reservations.isBlackout, false),
        gte(reservations.time, new Date(row.time.getTime() - DAY_MS)),
        lte(reservations.time, new Date(row.time.getTime() + DAY_MS)),
      ),
    );
  const byStart = new Map(near.map((r) => [r.time.getTime(), r.id]));
  const mates: { id: number; at: number }[] = [];
  for (let at = row.time.getTime() - SLOT_MS; !laterOnly && byStart.has(at); at -= SLOT_MS)
    mates.push({ id: byStart.get(at)!, at });
  for (let at = row.time.getTime() + SLOT_MS; byStart.has(at); at += SLOT_MS)
    mates.push({ id: byStart.get(at)!, at });
  return mates.sort((a, b) => a.at - b.at).map((m) => m.id);
}
