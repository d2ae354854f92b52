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
  /** The reservations as iCalendar text (the shared writer's, with the same UIDs as elsewhere). */
  calendar: string;
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
 * The booking confirmation: the seats and times in the venue's zone, and the booking's .ics
 * (METHOD:PUBLISH, the same method the MIME part names, as RFC 6047 asks).
 */
export function confirmationMail(booking: ConfirmedBooking): MailMessage {
  const zone = booking.location.timezone;
  const lines: string[] = [];
  booking.items.forEach((item) => {
    const start = DateTime.fromJSDate(item.start, { zone });
    const end = start.plus({ minutes: SLOT_MINUTES });
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
        content: booking.calendar,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      },
    ],
  };
}
