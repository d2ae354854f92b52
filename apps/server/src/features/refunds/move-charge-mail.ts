import { formatMoney } from '@paddock/contract/money';
import { describeInZone } from '../../lib/slots';
import type { ChargeRecord } from '../../plugins/payments/charge-card';
import { receiptMail, venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { RefundContext } from './refund-context';
import * as repo from './refunds.repo';

/**
 * The receipt of a move to a dearer seat (HTML and text, the receipt template): where the
 * booking is now and what the card was charged. After the commit; a mail failure is only logged.
 */
export async function sendMoveChargeReceipt(
  ctx: RefundContext,
  reservationId: number,
  charge: ChargeRecord,
) {
  try {
    const row = await repo.findReservation(ctx.db, reservationId);
    if (!row || row.userId === null) return;
    const user = await repo.findUserContact(ctx.db, row.userId);
    if (!user?.email) return;
    const card = await repo.findCard(ctx.db, row.userId);
    const settings = await getSettings(ctx.db);
    const when = describeInZone(row.time, row.location.timezone);
    const name =
      user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    const [part] = (await repo.moveChargesOf(ctx.db, reservationId)).filter(
      (c) => c.chargeId === charge.id,
    );
    const money = (cents: number) => formatMoney(cents, charge.currency);
    await ctx.mailer.send(
      await receiptMail({
        to: user.email,
        subject: `Receipt: ${row.calendarName}, ${when}`,
        venue: venueOf(settings, ctx.publicUrl),
        heading: 'Your reservation has moved',
        paragraphs: [
          `Hi ${name},`,
          `Your reservation is now for ${row.calendarName} at ${row.location.name} on ${when}. The new seat costs more; the difference was charged to ${card ? `your ${card.brand} ending ${card.last4}` : 'your card'}.`,
        ],
        rows: [
          ['Price difference charged', money(charge.amountCents)],
          ...(part && part.taxCents > 0
            ? ([['Of which tax', money(part.taxCents)]] as [string, string][])
            : []),
          ['Times shown in', row.location.timezone],
        ],
        button: { label: 'Your transactions', href: '/dashboard' },
        notes: ['Cancelling inside the free window gives this back too, with the rest.'],
      }),
    );
  } catch (error) {
    ctx.logError(error, 'move receipt mail failed');
  }
}

/**
 * The mail of a move that moved no money (same price, or not paid yet): where and when the
 * booking is now, and where it was, once for a whole run (issue 41). After the commit; a mail
 * failure is only logged.
 */
export async function sendMovedMail(
  ctx: RefundContext,
  moved: { id: number; fromSeat: string; fromTime: Date }[],
) {
  try {
    const sorted = [...moved].sort((a, b) => a.fromTime.getTime() - b.fromTime.getTime());
    const rows = [];
    for (const one of sorted) {
      const row = await repo.findReservation(ctx.db, one.id);
      if (row) rows.push({ row, from: one });
    }
    const first = rows[0]?.row;
    if (!first || first.userId === null) return;
    const user = await repo.findUserContact(ctx.db, first.userId);
    if (!user?.email) return;
    const zone = first.location.timezone;
    const when = describeInZone(first.time, zone);
    const was = describeInZone(rows[0].from.fromTime, zone);
    const name =
      user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    const owed = first.paid ? 'The price is the same, so nothing is charged or given back.' : '';
    await ctx.mailer.send(
      await receiptMail({
        to: user.email,
        subject: `Your reservation has moved: ${first.calendarName}, ${when}`,
        venue: venueOf(await getSettings(ctx.db), ctx.publicUrl),
        heading: 'Your reservation has moved',
        paragraphs: [
          `Hi ${name},`,
          `Your reservation at ${first.location.name} has moved. Please come at the new time.`,
          ...(owed ? [owed] : []),
        ],
        rows: [
          ['Now', `${first.calendarName}, ${when}`],
          ['Was', `${rows[0].from.fromSeat}, ${was}`],
          ['Times shown in', zone],
        ],
        lines:
          rows.length > 1
            ? rows.map(
                ({ row, from }) =>
                  `${row.calendarName}, ${describeInZone(row.time, zone)} (was ${from.fromSeat}, ${describeInZone(from.fromTime, zone)})`,
              )
            : [],
        button: { label: 'Your reservations', href: '/dashboard' },
      }),
    );
  } catch (error) {
    ctx.logError(error, 'move mail failed');
  }
}
