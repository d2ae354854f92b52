import ical, { ICalAlarmType, ICalCalendarMethod } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { DateTime } from 'luxon';
import addressparser from 'nodemailer/lib/addressparser';
import { SLOT_MINUTES } from './slots';

/**
 * One event: a reserved seat-slot (the staff feed) or a customer's visit, its back-to-back slots
 * and a group's seats in one (decision 0098).
 */
export type BookingEvent = {
  /** The UID: `reservation-{id}` for one seat-slot; a visit's is `visit-{its first slot's id}`. */
  uid: { reservationId: number } | { visitOf: number };
  start: Date;
  /** One slot after the start when not given. */
  end?: Date;
  /** A display alarm this long before the start. */
  reminderMinutes?: number;
  /** The venue's IANA zone: DTSTART/DTEND carry it as TZID, with its VTIMEZONE. */
  timezone: string;
  summary: string;
  description?: string;
  venue: { name: string; address: string };
  url?: string;
};

export type BookingCalendarOptions = {
  /** X-WR-CALNAME, shown by calendar apps as the file's or subscription's name. */
  name: string;
  /** `PUBLIC_URL`: its host makes the UIDs globally unique. */
  publicUrl: string;
  /** The venue as ORGANIZER (RFC 5546 requires one on a PUBLISH), e.g. `MAIL_FROM`. */
  organizer?: { name: string; mailFrom: string };
  /** REFRESH-INTERVAL / X-PUBLISHED-TTL for subscribed feeds. */
  ttlSeconds?: number;
  /** DTSTAMP (always written in UTC); tests pin it. */
  now?: Date;
};

/**
 * The UID of an event, so a calendar that has seen it once updates the event instead of adding
 * another: a seat-slot's (the staff feed) or a visit's (the e-mail and the dashboard download).
 */
export function eventUid(uid: BookingEvent['uid'], publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  return 'visitOf' in uid
    ? `visit-${uid.visitOf}@${host}`
    : `reservation-${uid.reservationId}@${host}`;
}

function organizerOf(organizer: BookingCalendarOptions['organizer']) {
  if (!organizer) return undefined;
  const [first] = addressparser(organizer.mailFrom, { flatten: true });
  return first?.address ? { name: organizer.name, email: first.address } : undefined;
}

/**
 * Paddock's only iCalendar (RFC 5545) writer. METHOD:PUBLISH everywhere: these are notices of a
 * booking the venue already confirmed, not invitations a customer answers (see decision 0029).
 */
export function bookingCalendar(events: BookingEvent[], opts: BookingCalendarOptions): string {
  const calendar = ical({
    name: opts.name,
    prodId: { company: 'Paddock', product: 'Bookings', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: opts.ttlSeconds ?? null,
  });
  // A null name: one VTIMEZONE for each zone the events use, from the generator.
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  const stamp = opts.now ?? new Date();
  const organizer = organizerOf(opts.organizer);
  for (const event of events) {
    const start = DateTime.fromJSDate(event.start, { zone: event.timezone });
    const created = calendar.createEvent({
      id: eventUid(event.uid, opts.publicUrl),
      stamp,
      start,
      end: event.end
        ? DateTime.fromJSDate(event.end, { zone: event.timezone })
        : start.plus({ minutes: SLOT_MINUTES }),
      timezone: event.timezone,
      summary: event.summary,
      description: event.description || undefined,
      location: [event.venue.name, event.venue.address].filter(Boolean).join(', ') || undefined,
      organizer,
      url: event.url,
    });
    if (event.reminderMinutes !== undefined)
      created.createAlarm({
        type: ICalAlarmType.display,
        triggerBefore: event.reminderMinutes * 60,
        description: event.summary,
      });
  }
  // Every content line ends in CRLF, the last one too (RFC 5545 §3.1); the library leaves it off.
  return `${calendar.toString()}\r\n`;
}
