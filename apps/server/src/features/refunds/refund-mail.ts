import type { MailMessage } from '../../plugins/mail';
import { receiptMail, type Venue } from '../../plugins/receipt-mail';

export type RefundReceipt = {
  to: string;
  name: string;
  venue: Venue;
  seatName: string;
  /** The slot on the venue's clock, with its zone. */
  when: string;
  locationName: string;
  timezone: string;
  /** "£22.50 back to your Visa ending 4242", one per way the money goes back. */
  lines: string[];
  cardFailed: boolean;
  /** A move to a cheaper seat (the booking stands, the difference comes back), not a cancel. */
  moved?: boolean;
};

/** The refund receipt of a cancellation or a move to a cheaper seat, in HTML and text (the receipt template). */
export function refundMail(r: RefundReceipt): Promise<MailMessage> {
  const what = r.moved ? 'moved there; the price difference comes back' : 'is cancelled';
  return receiptMail({
    to: r.to,
    subject: `Refund receipt: ${r.seatName}, ${r.when}`,
    venue: r.venue,
    heading: r.moved ? 'Your reservation has moved' : 'Your reservation is cancelled',
    paragraphs: [
      `Hi ${r.name},`,
      `Your reservation for ${r.seatName} at ${r.locationName} on ${r.when} ${what}.`,
      'What comes back:',
    ],
    // No rows: the receipt puts rows before lines, and "What comes back:" must be followed by
    // what comes back, in the text part as in the HTML (issue 41).
    lines: r.lines,
    button: { label: 'Your transactions', href: '/dashboard' },
    notes: [
      ...(r.cardFailed
        ? ['The refund to your card was declined; we will try again and let you know.']
        : []),
      `Times shown in ${r.timezone}.`,
    ],
  });
}
