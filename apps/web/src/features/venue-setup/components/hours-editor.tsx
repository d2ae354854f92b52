import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import {
  WEEKDAY_NAMES,
  type HoursRange,
  type OpeningHours,
  type SpecialHours,
} from '@paddock/contract/locations';
import { errorsUnder, type FieldErrors } from '../../../lib/field-errors';

type RangesProps = {
  /** Names the inputs: "Monday", "2026-12-24". */
  name: string;
  ranges: HoursRange[];
  onChange: (ranges: HoursRange[]) => void;
  /** Messages for this list (path prefix already applied). */
  errorsOf: (path: string) => string | undefined;
};

/** One day's opening ranges: open and close times, added and removed one by one. */
function RangeList({ name, ranges, onChange, errorsOf }: RangesProps) {
  const set = (i: number, part: Partial<HoursRange>) =>
    onChange(ranges.map((r, j) => (j === i ? { ...r, ...part } : r)));
  const ordinal = (i: number) => (ranges.length > 1 ? ` (${i + 1})` : '');
  return (
    <div className="d-flex flex-column gap-2">
      {ranges.map((range, i) => {
        const error = errorsOf(String(i));
        return (
          <div key={i} className="d-flex flex-wrap align-items-center gap-2">
            <Form.Control
              type="time"
              className="w-auto"
              aria-label={`${name} opens${ordinal(i)}`}
              value={range.open}
              isInvalid={!!error}
              onChange={(e) => set(i, { open: e.target.value })}
            />
            <span aria-hidden>to</span>
            <Form.Control
              type="time"
              className="w-auto"
              aria-label={`${name} closes${ordinal(i)}`}
              value={range.close}
              isInvalid={!!error}
              onChange={(e) => set(i, { close: e.target.value })}
            />
            <Button
              variant="outline-danger"
              size="sm"
              aria-label={`Remove ${name} hours${ordinal(i)}`}
              onClick={() => onChange(ranges.filter((_, j) => j !== i))}
            >
              Remove
            </Button>
            {error && <div className="text-danger small w-100">{error}</div>}
          </div>
        );
      })}
      <div>
        <Button
          variant="outline-secondary"
          size="sm"
          aria-label={`Add hours on ${name}`}
          onClick={() =>
            onChange([
              ...ranges,
              ranges.length === 0
                ? { open: '12:00', close: '22:00' }
                : { open: ranges[ranges.length - 1].close, close: '23:30' },
            ])
          }
        >
          Add hours
        </Button>
      </div>
    </div>
  );
}

type WeeklyProps = {
  value: OpeningHours;
  onChange: (value: OpeningHours) => void;
  errors: FieldErrors;
};

/** Weekly opening hours: several ranges a day; a close at or before the open runs past midnight. */
export function WeeklyHoursEditor({ value, onChange, errors }: WeeklyProps) {
  const hintId = useId();
  return (
    <fieldset className="mb-4" aria-describedby={hintId}>
      <legend className="h5">Weekly opening hours</legend>
      <p id={hintId} className="form-text mt-0">
        A closing time at or before the opening time closes after midnight (18:00 to 02:00). A day
        without hours is closed.
      </p>
      {errors.opening_hours && <div className="text-danger small mb-2">{errors.opening_hours}</div>}
      {WEEKDAY_NAMES.map((dayName, i) => {
        const day = String(i + 1) as keyof OpeningHours;
        const ranges = value[day] ?? [];
        const dayError = errors[`opening_hours.${day}`];
        return (
          <div
            key={day}
            className="row border-bottom py-2 g-2 align-items-start"
            role="group"
            aria-label={dayName}
          >
            <div className="col-12 col-sm-3 fw-semibold">
              {dayName}
              {ranges.length === 0 && (
                <span className="text-body-secondary fw-normal"> · Closed</span>
              )}
            </div>
            <div className="col-12 col-sm-9">
              <RangeList
                name={dayName}
                ranges={ranges}
                onChange={(next) => onChange({ ...value, [day]: next })}
                errorsOf={(path) => errorsUnder(errors, `opening_hours.${day}.${path}`)}
              />
              {dayError && <div className="text-danger small mt-1">{dayError}</div>}
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}

type SpecialProps = {
  value: SpecialHours;
  onChange: (value: SpecialHours) => void;
  errors: FieldErrors;
};

/** Closed dates and special hours: a date's own ranges replace its weekday's. */
export function SpecialHoursEditor({ value, onChange, errors }: SpecialProps) {
  const [adding, setAdding] = useState('');
  const dates = Object.keys(value).sort();
  const add = () => {
    if (!adding || adding in value) return;
    onChange({ ...value, [adding]: [] });
    setAdding('');
  };
  return (
    <fieldset className="mb-4">
      <legend className="h5">Closed dates and special hours</legend>
      {errors.special_hours && <div className="text-danger small mb-2">{errors.special_hours}</div>}
      {dates.length === 0 && <p className="text-body-secondary">No special dates.</p>}
      {dates.map((date) => {
        const ranges = value[date];
        const dateError = errors[`special_hours.${date}`];
        return (
          <div
            key={date}
            className="row border-bottom py-2 g-2 align-items-start"
            role="group"
            aria-label={date}
          >
            <div className="col-12 col-sm-3">
              <div className="fw-semibold">{date}</div>
              <Button
                variant="link"
                size="sm"
                className="p-0"
                aria-label={`Remove ${date}`}
                onClick={() =>
                  onChange(
                    Object.fromEntries(dates.filter((d) => d !== date).map((d) => [d, value[d]])),
                  )
                }
              >
                Remove date
              </Button>
            </div>
            <div className="col-12 col-sm-9">
              {ranges.length === 0 && <p className="mb-2">Closed all day</p>}
              <RangeList
                name={date}
                ranges={ranges}
                onChange={(next) => onChange({ ...value, [date]: next })}
                errorsOf={(path) => errorsUnder(errors, `special_hours.${date}.${path}`)}
              />
              {dateError && <div className="text-danger small mt-1">{dateError}</div>}
            </div>
          </div>
        );
      })}
      <div className="d-flex flex-wrap align-items-end gap-2 mt-2">
        <Form.Group controlId="special-date-to-add">
          <Form.Label>Date to add</Form.Label>
          <Form.Control type="date" value={adding} onChange={(e) => setAdding(e.target.value)} />
        </Form.Group>
        <Button variant="outline-secondary" onClick={add} disabled={!adding}>
          Add Date
        </Button>
      </div>
      <Form.Text>
        A new date starts closed all day; add hours to open it for those hours only.
      </Form.Text>
    </fieldset>
  );
}
