import type { Location } from '@paddock/contract/locations';
import type { Reservation } from '@paddock/contract/reservations';
import { showError } from '../../../lib/alerts';
import { formatSlotDateTime } from '../../../lib/slot-format';
import { getReservationCalendar, reservationCalendarUrl } from '../api/get-reservation-calendar';

type Props = {
  reservation: Reservation;
  location: Pick<Location, 'name' | 'address'> | undefined;
};

/** Google's `dates` form: UTC, basic ISO 8601 (`20261124T220000Z`). */
const googleDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

/** Google Calendar's "create event" page, pre-filled. */
export function googleCalendarUrl(reservation: Reservation, location: Props['location']): string {
  const start = Date.parse(reservation.time);
  const end = start + reservation.duration_minutes * 60_000;
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: location ? `${reservation.calendar_name} at ${location.name}` : reservation.calendar_name,
    dates: `${googleDate(start)}/${googleDate(end)}`,
  });
  const where = [location?.name, location?.address].filter(Boolean).join(', ');
  if (where) params.set('location', where);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/**
 * Saves the file. A Blob link is what browsers reliably download (the session travels in a
 * header, so the plain link cannot fetch the file by itself).
 */
function saveFile(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/calendar;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Add-to-calendar links: the booking's .ics from the server (the same event, UID and venue
 * time zone as the confirmation e-mail's) and Google Calendar's event page. The hidden text
 * names the booking for screen readers.
 */
export function AddToCalendar({ reservation, location }: Props) {
  const which = `for ${reservation.calendar_name}, ${formatSlotDateTime(reservation.slot)}`;
  const filename = `reservation-${reservation.id}.ics`;
  return (
    <span className="d-inline-flex flex-wrap gap-2">
      <a
        href={reservationCalendarUrl(reservation.id)}
        download={filename}
        onClick={(e) => {
          e.preventDefault();
          getReservationCalendar(reservation.id).then(
            (text) => saveFile(filename, text),
            (error: unknown) => showError(error),
          );
        }}
        className="text-nowrap"
      >
        Add to Calendar <span className="visually-hidden">{which}</span>
      </a>
      <a
        href={googleCalendarUrl(reservation, location)}
        target="_blank"
        rel="noopener noreferrer"
        className="text-nowrap"
      >
        Google Calendar <span className="visually-hidden">{which}</span>
      </a>
    </span>
  );
}
