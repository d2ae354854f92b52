import type { ParallelResponse } from '@paddock/contract/calendars';
import { minimumStayMessage } from '@paddock/contract/booking-words';
import type { StartTime } from './components/start-times';

/** One chosen seat-slot, as the quote takes it. */
export type ChosenSlot = { calendar: number; slot: string };

/** The start slots of a parallel search, each with the seats that fit from it, in time order. */
export function startTimesFrom(result: ParallelResponse): StartTime[] {
  const byStart = new Map<string, StartTime>();
  for (const seat of result) {
    for (const { slot, time } of seat.slots) {
      const entry = byStart.get(slot) ?? { slot, time, seatIds: [] };
      entry.seatIds.push(seat.id);
      byStart.set(slot, entry);
    }
  }
  return [...byStart.values()].sort((a, b) => a.slot.localeCompare(b.slot));
}

/**
 * `racers` seats out of those that fit, next to each other in the venue's seat order when
 * possible (friends racing together sit side by side), else the first ones that fit.
 */
export function pickSideBySide(seatOrder: number[], fitting: number[], racers: number): number[] {
  const fits = new Set(fitting);
  for (let i = 0; i + racers <= seatOrder.length; i += 1) {
    const run = seatOrder.slice(i, i + racers);
    if (run.every((id) => fits.has(id))) return run;
  }
  return seatOrder.filter((id) => fits.has(id)).slice(0, racers);
}

export function sortChosen(items: Iterable<ChosenSlot>): ChosenSlot[] {
  return [...items].sort((a, b) => a.slot.localeCompare(b.slot) || a.calendar - b.calendar);
}

/** A seat as the minimum needs it: its type's name and shortest booking. */
export type SeatMinimum = { id: number; type_name: string; type_min_minutes: number };

const HALF_HOUR_MS = 30 * 60_000;
/** A slot key's wall-clock instant, for adjacency only (keys are local: no zone needed). */
const wallMs = (slot: string) => Date.parse(`${slot}:00Z`);

/**
 * Why the chosen slots cannot be booked for their seat type's minimum, or null: the same rule
 * and words as the server's (decision 0089). `own` are the customer's bookings on each seat that
 * day, which join a chosen run next to them.
 */
export function minimumStayProblem(
  chosen: Iterable<ChosenSlot>,
  seats: SeatMinimum[],
  own: (seatId: number) => string[] = () => [],
): string | null {
  const bySeat = new Map<number, string[]>();
  for (const c of chosen) bySeat.set(c.calendar, [...(bySeat.get(c.calendar) ?? []), c.slot]);
  for (const seat of seats) {
    const picked = bySeat.get(seat.id);
    if (!picked || seat.type_min_minutes <= 30) continue;
    const taken = new Set([...picked, ...own(seat.id)].map(wallMs));
    for (const slot of picked) {
      let first = wallMs(slot);
      while (taken.has(first - HALF_HOUR_MS)) first -= HALF_HOUR_MS;
      let end = wallMs(slot) + HALF_HOUR_MS;
      while (taken.has(end)) end += HALF_HOUR_MS;
      if (end - first < seat.type_min_minutes * 60_000)
        return minimumStayMessage(seat.type_name, seat.type_min_minutes);
    }
  }
  return null;
}
