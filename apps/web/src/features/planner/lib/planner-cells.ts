import { ALL_LOCATIONS, type PlannerDay, type PlannerEntry } from '@paddock/contract/planner';

/** A cell of the planner: one seat at one slot, free or taken. */
export type Cell = { calendar: number; slot: string; time: string; entry: PlannerEntry | null };
export const cellKey = (calendar: number, slot: string) => `${calendar}|${slot}`;

/** Entries by cell key, for the grid. */
export function entriesByCell(day: PlannerDay): Map<string, PlannerEntry> {
  return new Map(day.entries.map((e) => [cellKey(e.calendar, e.slot), e]));
}

/** The spec hides free slots at quarter past and quarter to (Paddock's slots are half-hours). */
export function isHiddenFreeSlot(slot: string, entry: PlannerEntry | null): boolean {
  return !entry && /:(15|45)$/.test(slot);
}

/** Which With Selected actions the selection allows (spec staff §5, and the desk's extras). */
export function allowedActions(cells: Cell[]) {
  const any = cells.length > 0;
  const allFree = any && cells.every((c) => !c.entry);
  const allTaken = any && cells.every((c) => c.entry);
  const allDrivers = any && cells.every((c) => c.entry && !c.entry.is_blackout);
  return {
    blackout: allFree,
    book: allFree,
    delete: allTaken,
    attendance: allDrivers,
    move: cells.length === 1 && allDrivers,
  };
}

/**
 * Who sits in each seat now, and who comes next today (driver reservations only); `blocked`: a
 * blackout covers the seat now, so it is out of service rather than free.
 */
export function nowAndNext(day: PlannerDay, seat: number) {
  const blocked = day.entries.some(
    (e) => e.calendar === seat && e.slot === day.now_slot && e.is_blackout,
  );
  const drivers = day.entries
    .filter((e) => e.calendar === seat && !e.is_blackout)
    .sort((a, b) => a.slot.localeCompare(b.slot));
  const now = drivers.find((e) => e.slot === day.now_slot) ?? null;
  const next = drivers.find((e) => e.slot > day.now_slot && e.user !== now?.user) ?? null;
  return { now, next, blocked };
}

/**
 * Shift-click: every shown slot of the seat between the last cell ticked and this one, both
 * included (a range on one seat; another seat's cell starts afresh).
 */
export function rangeOfCells(
  slots: { slot: string; time: string }[],
  entries: Map<string, PlannerEntry>,
  anchor: Cell,
  cell: Cell,
): Cell[] {
  if (anchor.calendar !== cell.calendar) return [cell];
  const [low, high] = anchor.slot < cell.slot ? [anchor.slot, cell.slot] : [cell.slot, anchor.slot];
  return slots
    .filter((s) => s.slot >= low && s.slot <= high)
    .filter((s) => !isHiddenFreeSlot(s.slot, entries.get(cellKey(cell.calendar, s.slot)) ?? null))
    .map((s) => ({
      calendar: cell.calendar,
      slot: s.slot,
      time: s.time,
      entry: entries.get(cellKey(cell.calendar, s.slot)) ?? null,
    }));
}

/** The selection as one seat's range (first and last time), or null when it spans seats. */
export function oneSeatRange(cells: Cell[]): { calendar: number; from: string; to: string } | null {
  if (cells.length === 0 || cells.some((c) => c.calendar !== cells[0].calendar)) return null;
  const slots = cells.map((c) => c.slot).sort();
  if (slots[0].slice(0, 10) !== slots[slots.length - 1].slice(0, 10)) return null;
  return { calendar: cells[0].calendar, from: slots[0], to: slots[slots.length - 1] };
}

/** Seats whose name or type contains the filter text (any case). */
export function filterSeats(day: PlannerDay, text: string) {
  const needle = text.trim().toLowerCase();
  if (!needle) return day.seats;
  return day.seats.filter(
    (s) => s.name.toLowerCase().includes(needle) || s.type_name.toLowerCase().includes(needle),
  );
}

/** The name of what the planner shows: a location, or all of them. */
export const placeName = (day: PlannerDay) => day.location?.name ?? 'All locations';

/** The time zone of what the planner shows (all locations shown together share one). */
export const placeZone = (day: PlannerDay) => (day.location ?? day.locations[0]).timezone;

/** `?location=`: an id, `all`, or nothing (the venue's first location). */
export function parseLocationParam(value: string | null): number | typeof ALL_LOCATIONS | null {
  if (value === ALL_LOCATIONS) return ALL_LOCATIONS;
  return Number(value) || null;
}
