import { useQuery } from '@tanstack/react-query';
import { sessionTimeEstimate, type RaceEvent } from '@paddock/contract/races';
import { carQuery, trackQuery } from '../../lib/api/race-events-api';

/** "Race 5 laps" / "Practice 25 min". */
export const sessionLabel = (s: RaceEvent['sessions'][number]) =>
  `${s.name} ${s.duration} ${s.duration_is_laps ? (s.duration === 1 ? 'lap' : 'laps') : 'min'}`;

/** One line about an event: its track and its sessions in order, with the time estimate. */
export function EventSummary({ event }: { event: Pick<RaceEvent, 'track' | 'sessions'> }) {
  const track = useQuery({ ...trackQuery(event.track ?? 0), enabled: event.track !== null });
  const sessions = [...event.sessions].sort((a, b) => a.ordering - b.ordering);
  const minutes = sessionTimeEstimate(sessions);
  return (
    <span>
      <span className="fw-semibold">
        {event.track === null
          ? 'No track'
          : track.data
            ? track.data.layout
              ? `${track.data.name} (${track.data.layout})`
              : track.data.name
            : 'Track…'}
      </span>
      {sessions.length > 0 && <> · {sessions.map(sessionLabel).join(', ')}</>}
      {minutes > 0 && <> · about {minutes} min</>}
    </span>
  );
}

/** The car a seat drives in its event, or that it has none yet. */
export function EntryCar({ car }: { car: number | null }) {
  const found = useQuery({ ...carQuery(car ?? 0), enabled: car !== null });
  return (
    <span className="small text-body-secondary">
      {car === null ? 'No car' : (found.data?.name ?? 'Car…')}
    </span>
  );
}
