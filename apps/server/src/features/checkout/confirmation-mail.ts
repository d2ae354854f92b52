import ical from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { DateTime } from 'luxon';
import type { MailMessage } from '../../plugins/mail';
import { SLOT_MINUTES } from '../../lib/slots';

export type ConfirmedBooking = {
  checkoutId: number;
  to: string;
  name: string;
  companyName: string;
  location: { name: string; address: string; timezone: string };
  totalCents: number;
  /** The cancellation policy in force for this booking (docs/decisions/0027). */
  policyText: string;
  /** The dashboard, where an upcoming booking is cancelled; null when unknown. */
  manageUrl: string | null;
  /** One entry per seat-slot, in time order. */
  items: { seatName: string; start: Date }[];
};

const money = (cents: number) =>
  `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * The booking confirmation: the seats and times in the venue's zone, and an .ics with one event
 * per reservation (times in the location's zone, with its VTIMEZONE so any client shows them right).
 */
export function confirmationMail(booking: ConfirmedBooking): MailMessage {
  const zone = booking.location.timezone;
  const calendar = ical({ name: `${booking.companyName} booking` });
  calendar.timezone({ name: zone, generator: getVtimezoneComponent });
  const lines: string[] = [];
  booking.items.forEach((item, index) => {
    const start = DateTime.fromJSDate(item.start, { zone });
    const end = start.plus({ minutes: SLOT_MINUTES });
    calendar.createEvent({
      id: `paddock-checkout-${booking.checkoutId}-${index}`,
      start,
      end,
      timezone: zone,
      summary: `${item.seatName} at ${booking.location.name}`,
      location: [booking.location.name, booking.location.address].filter(Boolean).join(', '),
      description: `Sim racing reservation, ${item.seatName}.`,
    });
    lines.push(
      `- ${item.seatName}: ${start.toFormat('ccc, LLL d, yyyy, h:mm a')} to ${end.toFormat('h:mm a')} (${start.toFormat('ZZZZ')})`,
    );
  });
  const text = [
    `Hi ${booking.name},`,
    '',
    `Your booking at ${booking.location.name} is confirmed:`,
    '',
    ...lines,
    '',
    `Total charged: ${money(booking.totalCents)}`,
    '',
    'The attached calendar file adds every session to your calendar.',
    `Cancellation policy: ${booking.policyText}`,
    ...(booking.manageUrl
      ? [`To cancel a booking, open your dashboard: ${booking.manageUrl}`]
      : []),
    '',
    booking.companyName,
  ].join('\n');
  return {
    to: booking.to,
    subject: `Your booking at ${booking.location.name} is confirmed`,
    text,
    attachments: [
      {
        filename: 'booking.ics',
        content: calendar.toString(),
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      },
    ],
  };
}
