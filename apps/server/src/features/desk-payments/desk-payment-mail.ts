import { PAYMENT_METHOD_LABELS } from '@paddock/contract/charges';
import { formatMoney } from '@paddock/contract/money';
import type { Db } from '../../db/client';
import { describeInZone } from '../../lib/slots';
import type { ChargeRecord } from '../../plugins/payments/charge-card';
import { receiptMail, venueOf, type ReceiptDeps } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { ReservationRow } from '../reservations/reservations.repo';
import { partRows } from '../checkout/confirmation-mail';

/**
 * The seat, fee and tax lines of desk bookings paid whole by one payment, as a checkout's receipt
 * shows them (issue 41): read from what each booking stored when the desk priced it (the one
 * rule, priceBooking). None for a checkout's bookings (their tax is the checkout's) or a part.
 */
function deskParts(charge: ChargeRecord, rows: ReservationRow[]) {
  const whole = rows.reduce((n, r) => n + r.amountCents, 0) === charge.amountCents;
  if (rows.length === 0 || !whole || rows.some((r) => r.checkoutId !== null)) return [];
  const sum = (f: (r: ReservationRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  return partRows(charge.currency, {
    seatsCents: sum((r) => r.amountCents - r.bookingFeeCents - r.taxCents),
    feesCents: sum((r) => r.bookingFeeCents),
    taxCents: sum((r) => r.taxCents),
    voucher: null,
    credits: null,
  });
}

/** The customer's receipt for money taken at the desk; a failed mail never undoes the payment. */
export async function sendDeskReceipt(
  db: Db,
  mail: ReceiptDeps,
  to: string,
  charge: ChargeRecord,
  rows: ReservationRow[],
) {
  try {
    const amount = formatMoney(charge.amountCents, charge.currency);
    const method = PAYMENT_METHOD_LABELS[charge.method ?? 'other'];
    await mail.mailer.send(
      await receiptMail({
        to,
        subject: `Receipt: ${amount} paid at the desk`,
        venue: venueOf(await getSettings(db), mail.publicUrl),
        heading: 'Thank you for your payment',
        paragraphs: [`We received ${amount} at the desk for these bookings:`],
        lines: rows.map(
          (r) =>
            `${r.calendarName}, ${describeInZone(r.time, r.timezone)} at ${r.locationName}: ${formatMoney(r.amountCents, r.currency)}`,
        ),
        rows: [
          ...deskParts(charge, rows),
          ['Paid', amount],
          ['Method', method],
        ],
        button: { label: 'Your transactions', href: '/dashboard' },
      }),
    );
  } catch (error) {
    mail.logError(error, 'desk payment receipt mail failed');
  }
}
