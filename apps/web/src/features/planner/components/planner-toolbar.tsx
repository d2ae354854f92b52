import { DateTime } from 'luxon';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { ALL_LOCATIONS, type PlannerDay } from '@paddock/contract/planner';

export const ZOOM_MIN = 0.1;
export const ZOOM_STEP = 0.1;
const ZOOM_KEY = 'paddock.planner.zoom';

/** The zoom spin control's value, remembered on this device (spec staff §2). */
export function storedZoom(): number {
  const value = Number(localStorage.getItem(ZOOM_KEY));
  return Number.isFinite(value) && value >= ZOOM_MIN && value <= 3 ? value : 1;
}
export function storeZoom(value: number) {
  localStorage.setItem(ZOOM_KEY, String(value));
}

/** Spec staff §2: two months back to the end of next month, in the venue's calendar. */
export function plannerDateRange(today: string) {
  const day = DateTime.fromISO(today);
  return {
    first: day.minus({ months: 2 }).toISODate()!,
    last: day.plus({ months: 1 }).endOf('month').toISODate()!,
  };
}

type Props = {
  date: string;
  today: string;
  onDate: (date: string) => void;
  day: PlannerDay | undefined;
  location: number | typeof ALL_LOCATIONS | null;
  onLocation: (id: number | typeof ALL_LOCATIONS) => void;
  seatFilter: string;
  onSeatFilter: (text: string) => void;
  zoom: number;
  onZoom: (zoom: number) => void;
  onRefresh: () => void;
  refreshing: boolean;
};

/** Previous/Next day: at least 44 × 31 px, past WCAG 2.2's 24 px target size (issue 41). */
const DAY_BUTTON = { minWidth: '2.75rem', minHeight: '1.9375rem' } as const;

/** Date, location, seat filter, zoom and refresh. */
export function PlannerToolbar(props: Props) {
  const { date, today, onDate, day } = props;
  const range = plannerDateRange(today);
  const shift = (days: number) => {
    const next = DateTime.fromISO(date).plus({ days }).toISODate()!;
    if (next >= range.first && next <= range.last) onDate(next);
  };
  return (
    <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
      <Form.Group controlId="planner-date">
        <Form.Label className="small mb-1">Date</Form.Label>
        <InputGroup size="sm">
          <Button
            variant="outline-secondary"
            onClick={() => shift(-1)}
            disabled={date <= range.first}
            aria-label="Previous day"
            style={DAY_BUTTON}
          >
            ‹
          </Button>
          <Form.Control
            type="date"
            value={date}
            min={range.first}
            max={range.last}
            required
            onChange={(e) => {
              const value = e.target.value;
              if (value >= range.first && value <= range.last) onDate(value);
            }}
          />
          <Button
            variant="outline-secondary"
            onClick={() => shift(1)}
            disabled={date >= range.last}
            aria-label="Next day"
            style={DAY_BUTTON}
          >
            ›
          </Button>
          <Button
            variant="outline-secondary"
            onClick={() => onDate(today)}
            disabled={date === today}
          >
            Today
          </Button>
        </InputGroup>
      </Form.Group>
      {day && day.locations.length > 1 && (
        <Form.Group controlId="planner-location">
          <Form.Label className="small mb-1">Location</Form.Label>
          <Form.Select
            size="sm"
            value={props.location ?? day.location?.id ?? ALL_LOCATIONS}
            onChange={(e) =>
              props.onLocation(
                e.target.value === ALL_LOCATIONS ? ALL_LOCATIONS : Number(e.target.value),
              )
            }
          >
            {day.locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
            {day.locations.every((l) => l.same_zone) && (
              <option value={ALL_LOCATIONS}>All locations</option>
            )}
          </Form.Select>
        </Form.Group>
      )}
      <Form.Group controlId="planner-seat-filter">
        <Form.Label className="small mb-1">Filter seats</Form.Label>
        <Form.Control
          size="sm"
          type="search"
          value={props.seatFilter}
          placeholder="Seat name or type"
          onChange={(e) => props.onSeatFilter(e.target.value)}
        />
      </Form.Group>
      <Form.Group controlId="planner-zoom" style={{ width: '6.5rem' }}>
        <Form.Label className="small mb-1">Zoom</Form.Label>
        <Form.Control
          size="sm"
          type="number"
          step={ZOOM_STEP}
          min={ZOOM_MIN}
          max={3}
          value={props.zoom}
          onChange={(e) => {
            const value = Math.round(Number(e.target.value) * 10) / 10;
            if (Number.isFinite(value) && value >= ZOOM_MIN && value <= 3) props.onZoom(value);
          }}
        />
      </Form.Group>
      <Button
        size="sm"
        variant="outline-primary"
        onClick={props.onRefresh}
        disabled={props.refreshing}
      >
        Refresh
      </Button>
    </div>
  );
}
