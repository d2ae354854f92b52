import { useId } from 'react';
import { shiftDate } from '../booking-path';

type Props = { date: string; first: string; onChange: (date: string) => void };

/** Previous day, a date field and Next day; never before `first` (the location's today). */
export function DayPicker({ date, first, onChange }: Props) {
  const id = useId();
  return (
    <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
      <button
        type="button"
        className="btn btn-outline-secondary"
        disabled={date <= first}
        onClick={() => onChange(shiftDate(date, -1))}
      >
        Previous day
      </button>
      <div>
        <label htmlFor={id} className="form-label mb-0 small">
          Date
        </label>
        <input
          id={id}
          type="date"
          className="form-control"
          min={first}
          value={date}
          onChange={(e) => e.target.value && onChange(e.target.value)}
        />
      </div>
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={() => onChange(shiftDate(date, 1))}
      >
        Next day
      </button>
    </div>
  );
}
