import type {
  PublicAvailability,
  PublicAvailabilityQuery,
} from '@paddock/contract/public-availability';
import type { Db } from '../../db/client';
import { SLOT_MINUTES } from '../../lib/slots';
import type { AnswerCache } from './answer-cache';
import * as repo from './calendars.repo';
import { parallelAvailability, type Caller } from './calendars.service';

/** A visitor without an account: the customer's booking window, nobody's holds are theirs. */
const VISITOR: Caller = { userId: null, role: 'customer' };

/**
 * One location's day as a visitor sees it (decision 0123): every seat with its price and the
 * start slots free now. What is free is the booking page's own rule (`parallelAvailability` for
 * one racer and one slot: the seat search customers use); this only leaves out who holds what.
 */
export async function publicDay(
  db: Db,
  query: PublicAvailabilityQuery,
  now = new Date(),
): Promise<{ value: PublicAvailability; seatIds: number[] }> {
  const free = await parallelAvailability(
    db,
    { date: query.date, location: query.location, block: SLOT_MINUTES, sessions: 1, racers: 1 },
    VISITOR,
    now,
  );
  const freeBySeat = new Map(free.map((s) => [s.id, s.slots]));
  const [location, seats] = await Promise.all([
    repo.findLocation(db, query.location),
    repo.findLocationSeats(db, query.location),
  ]);
  // parallelAvailability has refused a location that does not exist.
  const { id, name, timezone, currency } = location!;
  return {
    value: {
      location: { id, name, timezone, currency },
      date: query.date,
      seats: seats.map((seat) => ({
        id: seat.id,
        name: seat.name,
        type_name: seat.typeName,
        cost_cents: seat.costCents,
        cost_unit: seat.costUnit,
        min_minutes: seat.typeMinMinutes,
        free: (freeBySeat.get(seat.id) ?? []).map(({ slot, time }) => ({ slot, time })),
      })),
    },
    seatIds: seats.map((s) => s.id),
  };
}

/**
 * `publicDay` as JSON text, one answer for every visitor (no caller in the key), kept as the
 * seat answers are (decision 0036): until the change feed announces a change at the location,
 * and within the second it was computed in.
 */
export function publicDayJson(
  cache: AnswerCache,
  heard: () => Promise<boolean>,
  db: Db,
  query: PublicAvailabilityQuery,
): Promise<string> {
  return cache.answer(`public|${query.location}|${query.date}`, heard, async () => {
    const { value, seatIds } = await publicDay(db, query);
    return { value, locationId: query.location, seatIds };
  });
}
