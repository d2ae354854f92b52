import type { CSSProperties } from 'react';
import { formatMoney } from '@paddock/contract/money-format';
import type { PublicAvailability } from '@paddock/contract/public-availability';
import { formatSlotDate, formatSlotTime } from '../../../lib/slot-format';
import { textOn, type Selection } from '../booking-path';
import './seat-day.css';

type Props = {
  day: PublicAvailability;
  colour: string;
  selected?: Selection | null;
  onPick: (selection: Selection) => void;
};

/** Each seat of a location's day: its price and its free start times, one button each. */
export function SeatDay({ day, colour, selected, onPick }: Props) {
  const style = {
    '--seat-day-brand': colour,
    '--seat-day-on-brand': textOn(colour),
  } as CSSProperties;
  const anyFree = day.seats.some((s) => s.free.length > 0);
  return (
    <div className="seat-day" style={style}>
      {!anyFree && <p>No times available for {formatSlotDate(`${day.date}T00:00`)}</p>}
      {day.seats.map((seat) => {
        const heading = `seat-day-${seat.id}`;
        return (
          <section key={seat.id} className="seat-day-seat" aria-labelledby={heading}>
            <h3 id={heading} className="h6 mb-1">
              {seat.name} <span className="text-body-secondary">· {seat.type_name}</span>
            </h3>
            <p className="mb-2 small">
              {formatMoney(seat.cost_cents, day.location.currency)} / {seat.cost_unit}
              {seat.min_minutes > 30 && ` · at least ${seat.min_minutes / 60} hours`}
            </p>
            {seat.free.length === 0 ? (
              <p className="small text-body-secondary">No free times this day.</p>
            ) : (
              <ul className="seat-day-times" aria-label={`Free times on ${seat.name}`}>
                {seat.free.map(({ slot }) => {
                  const pressed = selected?.seat === seat.id && selected.slot === slot;
                  return (
                    <li key={slot}>
                      <button
                        type="button"
                        className="seat-day-time"
                        aria-pressed={pressed}
                        aria-label={`${seat.name} at ${formatSlotTime(slot)}`}
                        onClick={() => onPick({ seat: seat.id, slot })}
                      >
                        {formatSlotTime(slot)}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
