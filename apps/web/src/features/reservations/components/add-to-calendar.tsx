import type { Location } from '@paddock/contract/locations';
import type { Reservation } from '@paddock/contract/reservations';
import {
  buildIcs,
  downloadIcs,
  googleCalendarUrl,
  icsDataUrl,
  type IcsEvent,
} from '../../../lib/ics';
import { formatSlotDateTime } from '../../../lib/slot-format';

/** One booking as a calendar event: the seat, the venue and the whole run of slots. */
export function reservationEvent(
  reservation: Reservation,
  location: Pick<Location, 'name' | 'address'> | undefined,
  origin: string,
): IcsEvent {
  const start = new Date(reservation.time);
  const end = new Date(start.getTime() + reservation.duration_minutes * 60_000);
  const where = location?.name;
  return {
    uid: `paddock-reservation-${reservation.id}@${new URL(origin).hostname}`,
    start,
    end,
    summary: where ? `${reservation.calendar_name} at ${where}` : reservation.calendar_name,
    description: [
      `${reservation.duration_minutes} minutes on ${reservation.calendar_name}.`,
      'Please arrive 10 minutes early.',
      `Your reservations: ${origin}/dashboard`,
    ].join('\n'),
    location: [location?.name, location?.address].filter(Boolean).join(', ') || undefined,
    url: `${origin}/dashboard`,
  };
}

type Props = {
  reservation: Reservation;
  location: Pick<Location, 'name' | 'address'> | undefined;
};

/**
 * Add-to-calendar links: a .ics file made here in the browser (works offline, no round trip)
 * and Google Calendar's event page. The hidden text names the booking for screen readers.
 */
export function AddToCalendar({ reservation, location }: Props) {
  const event = reservationEvent(reservation, location, window.location.origin);
  const which = `for ${reservation.calendar_name}, ${formatSlotDateTime(reservation.slot)}`;
  const filename = `reservation-${reservation.id}.ics`;
  const ics = buildIcs([event]);
  return (
    <span className="d-inline-flex flex-wrap gap-2">
      <a
        href={icsDataUrl(ics)}
        download={filename}
        onClick={(e) => {
          e.preventDefault();
          downloadIcs(filename, ics);
        }}
        className="text-nowrap"
      >
        Add to Calendar <span className="visually-hidden">{which}</span>
      </a>
      <a
        href={googleCalendarUrl(event)}
        target="_blank"
        rel="noopener noreferrer"
        className="text-nowrap"
      >
        Google Calendar <span className="visually-hidden">{which}</span>
      </a>
    </span>
  );
}
