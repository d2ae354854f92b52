import { Fragment, useState, type KeyboardEvent } from 'react';
import type { AvailResponse, AvailSlot } from '@paddock/contract/calendars';
import { slotIsFull } from '@paddock/contract/booking-words';
import { formatSlotDate, formatSlotTime, isHalfHourSlot } from '../../../lib/slot-format';
import './slot-grid.css';

export type GridSeat = { id: number; name: string; type_name: string };

/** What one seat-slot looks like to the customer (staff §4 Checkout slot display). */
export type CellView =
  | 'free'
  | 'selected'
  | 'taken'
  | 'blackout'
  | 'mine_paid'
  | 'mine_unpaid'
  | 'past'
  | 'closed'
  | 'loading';

export const CELL_LABELS: Record<CellView, string> = {
  free: 'Free',
  selected: 'Selected',
  taken: 'Taken',
  blackout: 'Unavailable',
  mine_paid: 'You, Confirmed',
  mine_unpaid: 'You, Pending',
  past: 'Past',
  closed: 'Closed',
  loading: 'Loading…',
};

/**
 * A label's words, each its own box: on a phone a line breaks only between words, and a word
 * wider than its column ends in an ellipsis (issue 30: "Unavai-lable"); the full text stays in
 * the cell's accessible name and the header's title (slot-grid.css).
 */
function Words({ text }: { text: string }) {
  return text.split(' ').map((word, i) => (
    <Fragment key={i}>
      {i > 0 && ' '}
      <span className="paddock-word">{word}</span>
    </Fragment>
  ));
}

/** The key of one seat-slot in a selection. */
export const cellKey = (calendar: number, slot: string) => `${calendar}|${slot}`;

/**
 * Free slots can be chosen; a chosen one shows as selected. Everything else is disabled:
 * someone else's or a blackout, the customer's own booking (paid or not), the past.
 */
export function cellView(
  slot: AvailSlot | undefined,
  selected: boolean,
  loading: boolean,
  now: number,
): CellView {
  if (!slot) return loading ? 'loading' : 'closed';
  if (slot.state === 'free' && Date.parse(slot.time) <= now) return 'past';
  if (slot.state === 'free') return selected ? 'selected' : 'free';
  return slot.state;
}

type Props = {
  date: string;
  seats: GridSeat[];
  /** Each seat's slots that day; undefined while loading. */
  availability: Record<number, AvailResponse | undefined>;
  selected: ReadonlySet<string>;
  onToggle: (seat: GridSeat, slot: AvailSlot) => void;
  /** The current time in ms: free slots that have started show as past. */
  now: number;
  /**
   * Offered on a time whose every seat is taken: ask to be told when one frees up. Only when
   * `seats` are all of the location's (the waitlist counts every seat type).
   */
  onNotify?: (slot: string) => void;
};

/** Every seat of the row taken (by others, a blackout or oneself): nothing left to book. */
const FULL_VIEWS: ReadonlySet<CellView> = new Set([
  'taken',
  'blackout',
  'mine_paid',
  'mine_unpaid',
]);

type Position = { row: number; col: number };

const MOVES: Record<string, (p: Position, rows: number, cols: number) => Position> = {
  ArrowUp: (p) => ({ ...p, row: p.row - 1 }),
  ArrowDown: (p) => ({ ...p, row: p.row + 1 }),
  ArrowLeft: (p) => ({ ...p, col: p.col - 1 }),
  ArrowRight: (p) => ({ ...p, col: p.col + 1 }),
  Home: (p) => ({ ...p, col: 0 }),
  End: (p, _rows, cols) => ({ ...p, col: cols - 1 }),
  PageUp: (p) => ({ ...p, row: p.row - 4 }),
  PageDown: (p) => ({ ...p, row: p.row + 4 }),
};

/**
 * Seats across, times down: one button per seat-slot. It is a single tab stop; arrow keys,
 * Home/End and Page Up/Down move between cells and Enter or Space chooses (the ARIA grid
 * pattern), so a keyboard user does not tab through hundreds of slots. Disabled cells stay
 * focusable (aria-disabled) so their state can be read.
 */
export function SlotGrid({ date, seats, availability, selected, onToggle, now, onNotify }: Props) {
  const [active, setActive] = useState<Position | null>(null);
  const rowKeys = [...new Set(seats.flatMap((s) => Object.keys(availability[s.id] ?? {})))]
    .filter(isHalfHourSlot)
    .sort();
  const views = rowKeys.map((key) =>
    seats.map((seat) => {
      const slot = availability[seat.id]?.[key];
      return {
        slot,
        view: cellView(slot, selected.has(cellKey(seat.id, key)), !availability[seat.id], now),
      };
    }),
  );
  // Each row's date and time, formatted once rather than in every seat's cell label: the grid
  // is on the booking screen's first paint (decision 0065).
  const rowNames = rowKeys.map((key) => ({ date: formatSlotDate(key), time: formatSlotTime(key) }));
  const firstOpen = (() => {
    for (let row = 0; row < views.length; row += 1) {
      const col = views[row].findIndex((c) => c.view === 'free' || c.view === 'selected');
      if (col >= 0) return { row, col };
    }
    return { row: 0, col: 0 };
  })();
  const focus =
    active && active.row < rowKeys.length && active.col < seats.length ? active : firstOpen;

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move(focus, rowKeys.length, seats.length);
    const row = Math.max(0, Math.min(rowKeys.length - 1, next.row));
    const col = Math.max(0, Math.min(seats.length - 1, next.col));
    setActive({ row, col });
    event.currentTarget.querySelector<HTMLButtonElement>(`[data-cell="${row}-${col}"]`)?.focus();
  };

  if (!seats.length) return null;
  if (!rowKeys.length) {
    return seats.every((s) => availability[s.id]) ? (
      <p className="text-body-secondary">
        The venue is closed on {formatSlotDate(`${date}T00:00`)}.
      </p>
    ) : null;
  }

  return (
    <div className="table-responsive paddock-slot-grid">
      <table
        role="grid"
        className="table table-sm align-middle mb-0"
        aria-label={`Simulators and times on ${formatSlotDate(`${date}T00:00`)}`}
        onKeyDown={onKeyDown}
      >
        <thead>
          <tr>
            <th scope="col" className="paddock-slot-grid-corner">
              Time
            </th>
            {seats.map((seat) => (
              <th
                key={seat.id}
                scope="col"
                className="text-center"
                title={`${seat.name} (${seat.type_name})`}
              >
                <span className="d-block">
                  <Words text={seat.name} />
                </span>
                <span className="d-block small fw-normal text-body-secondary">
                  <Words text={seat.type_name} />
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rowKeys.map((key, row) => (
            <tr key={key}>
              <th scope="row" className="paddock-slot-grid-time">
                {rowNames[row].time}
                {onNotify &&
                  views[row].some((c) => c.view === 'taken') &&
                  slotIsFull(
                    seats.length,
                    views[row].filter((c) => FULL_VIEWS.has(c.view)).length,
                  ) && (
                    <button
                      type="button"
                      className="btn btn-link btn-sm d-block p-0 text-start"
                      aria-label={`Tell me when a seat frees up at ${rowNames[row].time}`}
                      onClick={() => onNotify(key)}
                    >
                      Notify me
                    </button>
                  )}
              </th>
              {seats.map((seat, col) => {
                const { slot, view } = views[row][col];
                const enabled = view === 'free' || view === 'selected';
                const label = CELL_LABELS[view];
                return (
                  <td key={seat.id} className="p-1">
                    <button
                      type="button"
                      data-cell={`${row}-${col}`}
                      className={`paddock-slot-cell paddock-slot-${view}`}
                      tabIndex={focus.row === row && focus.col === col ? 0 : -1}
                      aria-disabled={!enabled || undefined}
                      aria-pressed={enabled ? view === 'selected' : undefined}
                      aria-label={`${seat.name}, ${rowNames[row].date}, ${rowNames[row].time}: ${label}`}
                      onFocus={() => setActive({ row, col })}
                      onClick={() => {
                        if (enabled && slot) onToggle(seat, slot);
                      }}
                    >
                      <Words text={label} />
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
