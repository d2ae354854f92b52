import { api, apiUrl } from '../../../lib/api-client';

const path = (id: number) => `/reservations/${id}/calendar.ics`;

/** The address of a booking's calendar file (the link's href; the server needs the session). */
export const reservationCalendarUrl = (id: number) => apiUrl(path(id));

/**
 * `GET /api/reservations/{id}/calendar.ics`: the booking (and the back-to-back slots booked with
 * it) as iCalendar text, written by the server's one calendar writer.
 */
export const getReservationCalendar = (id: number) =>
  api<string>(path(id), { responseType: 'text' });
