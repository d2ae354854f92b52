import Alert from 'react-bootstrap/Alert';

/** Staff §8 Availability alerts, word for word. */
export function availabilityMessage(racers: number, minutes: number, found: boolean): string {
  return found
    ? `Excellent! We have ${racers} simulators available...`
    : `Sorry! We don't have ${racers} simulators available for ${minutes} minutes...`;
}

type Props = { racers: number; minutes: number; found: boolean };

/** Says whether the group fits on the chosen date; announced when the search answers. */
export function AvailabilityAlert({ racers, minutes, found }: Props) {
  return (
    <Alert variant={found ? 'success' : 'warning'} role="status" className="mb-3">
      {availabilityMessage(racers, minutes, found)}
    </Alert>
  );
}
