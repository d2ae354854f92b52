import { followsDirectly, type Slot } from '../../lib/slots';

/**
 * Start slots on `date` where at least `racers` of the seats are all free for `length`
 * back-to-back slots, and which seats those are. `slots` are the location's slots of the date
 * and the next one (a run may cross midnight), in time order; `bookable` says whether the caller
 * may book a slot (future, in window); `taken` holds each seat's reserved slot keys.
 * A closing time, a DST gap or an unbookable slot breaks a run.
 */
export function parallelStarts(input: {
  date: string;
  slots: Slot[];
  seatIds: number[];
  taken: Map<number, Set<string>>;
  bookable: (slot: Slot) => boolean;
  length: number;
  racers: number;
}): Map<number, Slot[]> {
  const { slots, seatIds, taken, length, racers } = input;
  const result = new Map<number, Slot[]>(seatIds.map((id) => [id, []]));
  if (racers > seatIds.length || length < 1) return result;
  for (let i = 0; i < slots.length; i += 1) {
    const start = slots[i];
    if (!start.slot.startsWith(input.date)) continue;
    const run = slots.slice(i, i + length);
    if (run.length < length || !run.every(input.bookable)) continue;
    if (!run.every((s, k) => k === 0 || followsDirectly(run[k - 1], s))) continue;
    const free = seatIds.filter((id) => {
      const mine = taken.get(id);
      return !mine || run.every((s) => !mine.has(s.slot));
    });
    if (free.length < racers) continue;
    for (const id of free) result.get(id)!.push(start);
  }
  return result;
}

/** Each seat's reserved slot keys. */
export function takenBySeat(
  rows: { calendarId: number; slot: string }[],
): Map<number, Set<string>> {
  const map = new Map<number, Set<string>>();
  for (const row of rows) {
    let set = map.get(row.calendarId);
    if (!set) map.set(row.calendarId, (set = new Set()));
    set.add(row.slot);
  }
  return map;
}
