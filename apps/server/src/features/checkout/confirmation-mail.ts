import { DateTime } from 'luxon';
import { formatMoney } from '@paddock/contract/money';
import type { MailMessage } from '../../plugins/mail';
import { receiptMail, type Venue } from '../../plugins/receipt-mail';
import { SLOT_MINUTES } from '../../lib/slots';

/**
 * What paid, line by line as the checkout showed it (issue 41): the seats, fees, club credits,
 * voucher and tax, then the total and how it was (or is to be) paid.
 */
export type BookingPayment = {
  /** card: the saved card; desk: owed, to pay at the desk; club_credit: a subscription's session. */
  by: 'card' | 'desk' | 'club_credit';
  seatsCents: number;
  feesCents: number;
  taxCents: number;
  voucher: { code: string; cents: number } | null;
  credits: { count: number; cents: number } | null;
};

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
  /** What paid; without it (an old owed confirmation), the total only. */
  payment?: BookingPayment;
};

/**
 * A payment that did not go through (issue 41): `declined`, the card refused and the seats stay
 * booked, unpaid; `released`, the bank's 3-D Secure check failed or was left, so the seats went
 * back. Either way nothing was charged.
 */
export type PaymentOutcome = {
  /** `cancelled`: the customer's (or staff's) cancel stopped it while the bank checked (0114). */
  outcome: 'declined' | 'released' | 'cancelled';
  message: string;
};

/** The mail of a payment that did not go through: what happened to the seats, nothing charged. */
export function paymentOutcomeMail(
  booking: ConfirmedBooking & PaymentOutcome,
): Promise<MailMessage> {
  const zone = booking.location.timezone;
  const amount = formatMoney(booking.totalCents, booking.location.currency);
  const declined = booking.outcome === 'declined';
  const cancelled = booking.outcome === 'cancelled';
  // The provider's own words, unless they only repeat that the card was declined.
  const said =
    booking.message && !(declined && /^Your card was declined\.?$/.test(booking.message))
      ? ` The bank said: “${booking.message}”`
      : '';
  return receiptMail({
    to: booking.to,
    subject: declined
      ? `Payment declined: your booking at ${booking.location.name} is not paid`
      : cancelled
        ? `Booking cancelled: nothing was charged`
        : `Payment not completed: nothing was charged`,
    venue: booking.venue,
    heading: declined
      ? 'Your payment was declined'
      : cancelled
        ? 'Your booking is cancelled'
        : 'Your booking was not completed',
    paragraphs: [
      `Hi ${booking.name},`,
      declined
        ? `Your card was declined, so nothing was charged.${said} Your seats are kept for you, unpaid: ${amount} is owed. Pay it from your dashboard with another card, or at the desk when you arrive.`
        : cancelled
          ? "Your booking was cancelled while its payment waited for your bank's security check (3-D Secure): the payment was stopped, and nothing was charged. Its seats were let go, and any voucher or club credits it used are given back."
          : `The bank's security check (3-D Secure) did not pass, so nothing was charged.${said} The seats were not kept: the booking is cancelled, and any voucher or club credits it used are given back.`,
    ],
    rows: [
      ['Times shown in', zone],
      ['Booking', booking.reference],
      [
        declined ? 'Owed' : 'Charged',
        declined ? amount : formatMoney(0, booking.location.currency),
      ],
    ],
    lines: seatRuns(booking.items).map((run) => {
      const start = DateTime.fromJSDate(run.start, { zone });
      return `${run.seatName}: ${start.toFormat('ccc, LLL d, yyyy, h:mm a')} (${declined ? 'kept, unpaid' : cancelled ? 'cancelled' : 'released'})`;
    }),
    button: declined
      ? { label: 'Pay from your dashboard', href: '/dashboard' }
      : { label: 'Book again', href: '/' },
  });
}

type Row = [label: string, value: string];

/** The money rows: each part that paid, then the total in words that say how. */
export function paymentRows(totalCents: number, currency: string, p?: BookingPayment): Row[] {
  const money = (cents: number) => formatMoney(cents, currency);
  if (!p) return [['Total charged', money(totalCents)]];
  const rows = partRows(currency, p);
  if (p.by === 'club_credit')
    rows.push(['Club subscription session', `−${money(p.seatsCents + p.feesCents)}`]);
  if (p.by === 'desk') rows.push(['To pay at the desk', money(totalCents)]);
  else rows.push(['Total charged', money(totalCents)]);
  return rows;
}

/** What paid, part by part (seats, fees, credits, voucher, tax): a receipt's rows before its total. */
export function partRows(currency: string, p: Omit<BookingPayment, 'by'>): Row[] {
  const money = (cents: number) => formatMoney(cents, currency);
  const rows: Row[] = [['Seats', money(p.seatsCents)]];
  if (p.feesCents > 0) rows.push(['Booking fees', money(p.feesCents)]);
  if (p.credits && p.credits.count > 0)
    rows.push([`Club credits (${p.credits.count})`, `−${money(p.credits.cents)}`]);
  if (p.voucher && p.voucher.cents > 0)
    rows.push([`Voucher ${p.voucher.code}`, `−${money(p.voucher.cents)}`]);
  if (p.taxCents > 0) rows.push(['Tax', money(p.taxCents)]);
  return rows;
}

/** The items as runs of back-to-back half-hours on one seat, in time order (decision 0098). */
export function seatRuns(items: ConfirmedBooking['items']) {
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
  const owed = booking.payment?.by === 'desk';
  const amount = formatMoney(booking.totalCents, booking.location.currency);
  return receiptMail({
    to: booking.to,
    subject: owed
      ? `Your booking at ${booking.location.name}: ${amount} to pay at the desk`
      : `Your booking at ${booking.location.name} is confirmed`,
    venue: booking.venue,
    heading: owed ? 'Your booking is made' : 'Your booking is confirmed',
    paragraphs: [
      `Hi ${booking.name},`,
      owed
        ? `Your booking at ${booking.location.name} is made and not paid yet: ${amount} is owed. Please pay at the desk when you arrive.`
        : `Your booking at ${booking.location.name} is confirmed.`,
    ],
    rows: [
      ['Venue', where],
      ['Times shown in', zone],
      ['Booking', booking.reference],
      ...paymentRows(booking.totalCents, booking.location.currency, booking.payment),
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
