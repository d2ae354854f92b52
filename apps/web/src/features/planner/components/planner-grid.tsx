import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import {
  OUT_OF_SERVICE,
  PLANNER_COLUMN_PX,
  type PlannerDay,
  type PlannerEntry,
} from '@paddock/contract/planner';
import { formatSlotTime } from '../../../lib/slot-format';
import { pathTo } from '../../../lib/routes';
import { cellKey, isHiddenFreeSlot, nowAndNext, placeName, type Cell } from '../lib/planner-cells';

export const PLANNER_GRID_ID = 'planner-grid';

/**
 * Moves the keyboard to the grid: the first seat's cell at the current time (today), else the
 * first cell shown.
 */
export function focusFirstCell(day: PlannerDay, seats: readonly { id: number }[]) {
  const grid = document.getElementById(PLANNER_GRID_ID);
  const now = day.slots.findLast((s) => s.slot <= day.now_slot)?.slot;
  const atNow = seats[0] && now ? document.getElementById(`cell-${seats[0].id}-${now}`) : null;
  const target = atNow ?? grid?.querySelector<HTMLElement>('input[type="checkbox"]');
  target?.focus();
}

const TIME_COLUMN_PX = 96;
const HEADER_PX = 64;
const ROW_PX = 56;

type Seat = PlannerDay['seats'][number];
type Props = {
  day: PlannerDay;
  seats: Seat[];
  entries: Map<string, PlannerEntry>;
  zoom: number;
  selected: Set<string>;
  /** `shift`: the click held Shift (a range from the last cell ticked). */
  onToggle: (cell: Cell, shift: boolean) => void;
  onDetails: (cell: Cell) => void;
  onOutOfService: (seat: number) => void;
};

function AttendanceBadge({ entry }: { entry: PlannerEntry }) {
  if (entry.attendance === 'checked_in')
    return (
      <Badge bg="info" text="dark">
        Checked in
      </Badge>
    );
  if (entry.attendance === 'no_show') return <Badge bg="secondary">No-show</Badge>;
  return null;
}

/**
 * One column per seat (520 px × zoom), one row per half-hour. Only the columns and rows in
 * view are in the page, so a 300-seat day scrolls as smoothly as a 6-seat one.
 */
export function PlannerGrid({
  day,
  seats,
  entries,
  zoom,
  selected,
  onToggle,
  onDetails,
  onOutOfService,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const columnPx = Math.round(PLANNER_COLUMN_PX * zoom);
  const rowPx = Math.max(24, Math.round(ROW_PX * zoom));
  const slots = day.slots.filter((s) =>
    seats.some((seat) => !isHiddenFreeSlot(s.slot, entries.get(cellKey(seat.id, s.slot)) ?? null)),
  );
  // No React Compiler here: the virtualizers re-render the grid as it scrolls, which is the point.
  // eslint-disable-next-line react-hooks/incompatible-library
  const columns = useVirtualizer({
    horizontal: true,
    count: seats.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => columnPx,
    overscan: 1,
  });
  const rows = useVirtualizer({
    count: slots.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowPx,
    overscan: 4,
    scrollPaddingStart: HEADER_PX,
  });
  // A new zoom takes effect at once: the virtualizers forget the sizes they measured.
  useEffect(() => {
    columns.measure();
    rows.measure();
  }, [columns, rows, columnPx, rowPx]);
  // Today opens at the current time (once per day shown, not at every refresh).
  const scrolledFor = useRef<string | null>(null);
  const nowIndex = slots.findLastIndex((s) => s.slot <= day.now_slot);
  const isToday = day.now_slot.startsWith(day.date);
  useEffect(() => {
    if (scrolledFor.current === day.date) return;
    scrolledFor.current = day.date;
    if (isToday && nowIndex > 0) rows.scrollToIndex(nowIndex, { align: 'start' });
  }, [rows, day.date, isToday, nowIndex]);
  const width = TIME_COLUMN_PX + columns.getTotalSize();
  const locationName = (seat: Seat) => day.locations.find((l) => l.id === seat.location)?.name;
  const height = rows.getTotalSize();

  return (
    <div
      ref={scroller}
      id={PLANNER_GRID_ID}
      className="paddock-planner border rounded"
      style={{ fontSize: `${Math.max(0.5, zoom)}rem` }}
      // Not a Tab stop of its own: its cells are (the first one a few Tabs from the top).
      tabIndex={-1}
      aria-label={`Planner for ${placeName(day)}, ${seats.length} seats`}
      role="region"
    >
      <div style={{ width, height: HEADER_PX + height, position: 'relative' }}>
        <div className="paddock-planner-header" style={{ height: HEADER_PX, width }}>
          {columns.getVirtualItems().map((col) => {
            const seat = seats[col.index];
            const { now, next, blocked } = nowAndNext(day, seat.id);
            return (
              <div
                key={seat.id}
                className="paddock-planner-seat"
                style={{ left: TIME_COLUMN_PX + col.start, width: col.size }}
              >
                <div className="d-flex gap-2 align-items-baseline">
                  <strong>{seat.name}</strong>
                  <span className="text-body-secondary text-truncate me-auto">
                    {day.location ? seat.type_name : `${seat.type_name} · ${locationName(seat)}`}
                  </span>
                  <Button
                    size="sm"
                    variant="link"
                    className="p-0 text-nowrap"
                    onClick={() => onOutOfService(seat.id)}
                  >
                    Out of Service…<span className="visually-hidden"> {seat.name}</span>
                  </Button>
                </div>
                <div className="small text-truncate">
                  {blocked ? (
                    <Badge bg="danger">{OUT_OF_SERVICE}</Badge>
                  ) : now ? (
                    `Now: ${now.user_display_name}`
                  ) : (
                    'Now: free'
                  )}
                  {next && ` · Next: ${formatSlotTime(next.slot)} ${next.user_display_name}`}
                </div>
              </div>
            );
          })}
        </div>
        <div className="paddock-planner-times" style={{ width: TIME_COLUMN_PX, height }}>
          {rows.getVirtualItems().map((row) => (
            <div
              key={slots[row.index].slot}
              className={
                slots[row.index].slot === day.now_slot
                  ? 'paddock-planner-time fw-bold'
                  : 'paddock-planner-time'
              }
              style={{ top: row.start, height: row.size }}
            >
              {formatSlotTime(slots[row.index].slot)}
            </div>
          ))}
        </div>
        {/* Column by column: Tab goes down a seat's times, then on to the next seat. */}
        {columns.getVirtualItems().flatMap((col) =>
          rows.getVirtualItems().map((row) => {
            const seat = seats[col.index];
            const { slot, time } = slots[row.index];
            const key = cellKey(seat.id, slot);
            const entry = entries.get(key) ?? null;
            const cell: Cell = { calendar: seat.id, slot, time, entry };
            const state = !entry ? 'empty' : entry.is_blackout ? 'blackout' : 'reserved';
            return (
              <div
                key={key}
                className={`paddock-planner-cell paddock-planner-${state}${selected.has(key) ? ' paddock-planner-selected' : ''}`}
                style={{
                  top: HEADER_PX + row.start,
                  left: TIME_COLUMN_PX + col.start,
                  width: col.size,
                  height: row.size,
                }}
                data-state={state}
              >
                <Form.Check
                  id={`cell-${seat.id}-${slot}`}
                  className="mb-0 text-nowrap"
                  checked={selected.has(key)}
                  // The click (or Space) that changed it says whether Shift was held.
                  onChange={(e) => onToggle(cell, (e.nativeEvent as MouseEvent).shiftKey === true)}
                  label={
                    <span className="visually-hidden">
                      {seat.name} {formatSlotTime(slot)}
                    </span>
                  }
                />
                <span className="text-nowrap small">{formatSlotTime(slot)}</span>
                {state === 'empty' && <span className="text-body-secondary small">Free</span>}
                {entry && !entry.is_blackout && (
                  <span className="text-truncate">
                    {entry.user !== null ? (
                      <Link to={pathTo('adminUser', { userId: entry.user })}>
                        {entry.user_display_name}
                      </Link>
                    ) : (
                      entry.user_display_name
                    )}{' '}
                    <Badge
                      bg={entry.paid ? 'success' : 'warning'}
                      text={entry.paid ? undefined : 'dark'}
                    >
                      {entry.paid ? 'Paid' : 'Unpaid'}
                    </Badge>{' '}
                    <AttendanceBadge entry={entry} />
                  </span>
                )}
                {entry?.is_blackout && (
                  <span className="text-truncate">
                    <Badge bg="secondary">Blackout</Badge> {entry.notes}{' '}
                    <Button
                      size="sm"
                      variant="link"
                      className="p-0 align-baseline"
                      onClick={() => onDetails(cell)}
                    >
                      Details
                      <span className="visually-hidden">
                        {' '}
                        of {seat.name} {formatSlotTime(slot)}
                      </span>
                    </Button>
                  </span>
                )}
              </div>
            );
          }),
        )}
      </div>
    </div>
  );
}
