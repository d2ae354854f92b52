import Button from 'react-bootstrap/Button';
import { formatSlotDate, formatSlotTime } from '../../../lib/slot-format';

export type StartTime = { slot: string; time: string; seatIds: number[] };

type Props = {
  starts: StartTime[];
  racers: number;
  minutes: number;
  onPick: (start: StartTime) => void;
};

/** The start times where the whole group fits; one press selects their seats side by side. */
export function StartTimes({ starts, racers, minutes, onPick }: Props) {
  if (!starts.length) return null;
  return (
    <section aria-labelledby="start-times-title" className="mb-3">
      <h3 id="start-times-title" className="h6 mb-1">
        Start Times
      </h3>
      <p className="small text-body-secondary mb-2">
        Choose a start time to select{' '}
        {racers === 1 ? 'a simulator' : `${racers} simulators side by side`} for {minutes} minutes,
        or pick times in the grid below.
      </p>
      <div className="d-flex flex-wrap gap-2">
        {starts.map((start) => (
          <Button
            key={start.slot}
            size="sm"
            variant="outline-primary"
            onClick={() => onPick(start)}
            aria-label={`Start at ${formatSlotTime(start.slot)} on ${formatSlotDate(start.slot)}`}
          >
            {formatSlotTime(start.slot)}
          </Button>
        ))}
      </div>
    </section>
  );
}
