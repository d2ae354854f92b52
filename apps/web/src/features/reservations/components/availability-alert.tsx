import { PlainAlert } from '../../../components/plain-alert';
import { countOf, SIMULATORS } from '../../../lib/plural';

/**
 * Staff §8 Availability alerts, word for word ("1 simulator" for one: issue 15). Found: how many
 * seats the group could use that day, not the group's size ("1 simulator" with 7 free: issue 30).
 */
export function availabilityMessage(
  racers: number,
  minutes: number,
  found: boolean,
  available = racers,
): string {
  return found
    ? `Excellent! We have ${countOf(Math.max(available, racers), SIMULATORS)} available...`
    : `Sorry! We don't have ${countOf(racers, SIMULATORS)} available for ${minutes} minutes...`;
}

type Props = { racers: number; minutes: number; found: boolean; available: number };

/** Says whether the group fits on the chosen date; announced when the search answers. */
export function AvailabilityAlert({ racers, minutes, found, available }: Props) {
  return (
    <PlainAlert variant={found ? 'success' : 'warning'} role="status" className="mb-3">
      {availabilityMessage(racers, minutes, found, available)}
    </PlainAlert>
  );
}
