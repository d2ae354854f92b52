import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { dateFromIso, isoFromDate } from '../../../lib/slot-format';
import './booking-date-picker.css';

type Props = {
  /** `YYYY-MM-DD`. */
  value: string;
  onChange: (date: string) => void;
  /** The first and last dates that can be chosen. */
  first: string;
  last: string;
  /** How far the month navigation reaches (defaults: the choosable range). */
  startMonth?: string;
  endMonth?: string;
  label: string;
};

/**
 * The month calendar (react-day-picker: an ARIA grid whose day buttons are named with the full
 * date, e.g. "Tuesday, November 24th, 2026"). Dates outside [first, last] are disabled.
 * Its own chunk (react-day-picker brings date-fns): screens load it lazily.
 */
export default function BookingDatePicker({
  value,
  onChange,
  first,
  last,
  startMonth,
  endMonth,
  label,
}: Props) {
  const selected = dateFromIso(value);
  return (
    <div className="paddock-date-picker" role="group" aria-label={label}>
      <DayPicker
        mode="single"
        required
        selected={selected}
        defaultMonth={selected}
        onSelect={(date) => {
          if (date) onChange(isoFromDate(date));
        }}
        disabled={[{ before: dateFromIso(first) }, { after: dateFromIso(last) }]}
        startMonth={dateFromIso(startMonth ?? first)}
        endMonth={dateFromIso(endMonth ?? last)}
      />
    </div>
  );
}
