import type { ParallelResponse } from '@paddock/contract/calendars';
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
