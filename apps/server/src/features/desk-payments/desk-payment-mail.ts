import { PAYMENT_METHOD_LABELS } from '@paddock/contract/charges';
import { formatMoney } from '@paddock/contract/money';
import type { Db } from '../../db/client';
import { describeInZone } from '../../lib/slots';
import type { ChargeRecord } from '../../plugins/payments/charge-card';
import { receiptMail, venueOf, type ReceiptDeps } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { ReservationRow } from '../reservations/reservations.repo';

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
