import { DateTime } from 'luxon';
import { formatMoney } from '@paddock/contract/money';
import type { MailMessage } from '../../plugins/mail';
import { receiptMail, type Venue } from '../../plugins/receipt-mail';
import { SLOT_MINUTES } from '../../lib/slots';

export type ConfirmedBooking = {
  /** What the mail calls the booking: `#12` (a checkout), `Reservation #34` (a club credit). */
  reference: string;
  to: string;
  name: string;
  venue: Venue;
  location: { name: string; address: string; timezone: string; currency: string };
  totalCents: number;
  /** The reservations as iCalendar text (the shared writer's, with the same UIDs as elsewhere). */
  calendar: string;
  /** The cancellation policy in force for this booking (docs/decisions/0027). */
  policyText: string;
  /** One entry per seat-slot, in time order. */
  items: { seatName: string; start: Date }[];
};

/** The items as runs of back-to-back half-hours on one seat, in time order (decision 0098). */
function seatRuns(items: ConfirmedBooking['items']) {
  const runs: { seatName: string; start: Date; end: Date }[] = [];
  const slot = SLOT_MINUTES * 60_000;
  for (const item of [...items].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const run = runs.find(
      (r) => r.seatName === item.seatName && r.end.getTime() === item.start.getTime(),
    );
    if (run) run.end = new Date(item.start.getTime() + slot);
    else
      runs.push({
        seatName: item.seatName,
        start: item.start,
        end: new Date(item.start.getTime() + slot),
      });
  }
  return runs;
}

/**
 * The booking receipt: the venue and its time zone, the seats and times on the venue's clock,
 * the total in the location's currency, and the booking's .ics (METHOD:PUBLISH, the same method
 * the MIME part names, as RFC 6047 asks).
 */
export function confirmationMail(booking: ConfirmedBooking): Promise<MailMessage> {
  const zone = booking.location.timezone;
  const lines = seatRuns(booking.items).map((run) => {
    const start = DateTime.fromJSDate(run.start, { zone });
    const end = DateTime.fromJSDate(run.end, { zone });
    return `${run.seatName}: ${start.toFormat('ccc, LLL d, yyyy, h:mm a')} to ${end.toFormat('h:mm a')} (${start.toFormat('ZZZZ')})`;
  });
  const where = [booking.location.name, booking.location.address].filter(Boolean).join(', ');
  return receiptMail({
    to: booking.to,
    subject: `Your booking at ${booking.location.name} is confirmed`,
    venue: booking.venue,
    heading: 'Your booking is confirmed',
    paragraphs: [`Hi ${booking.name},`, `Your booking at ${booking.location.name} is confirmed.`],
    rows: [
      ['Venue', where],
      ['Times shown in', zone],
      ['Booking', booking.reference],
      ['Total charged', formatMoney(booking.totalCents, booking.location.currency)],
    ],
    lines,
    button: { label: 'Your reservations', href: '/dashboard' },
    notes: [
      'The attached calendar file adds each visit to your calendar, with a reminder an hour before.',
      `Cancellation policy: ${booking.policyText}`,
      'To cancel a booking, open your dashboard.',
    ],
    attachments: [
      {
        filename: 'booking.ics',
        content: booking.calendar,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      },
    ],
  });
}
