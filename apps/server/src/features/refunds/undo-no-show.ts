// Undoing Mark No-show (issue 41, decision 0116): the booking goes back to attended-unknown.
// Allowed only while the no-show gave nothing back: a refund, once sent or credited, is the
// customer's, and taking it again is a new charge, not an undo.
import { formatMoney } from '@paddock/contract/money';
import { ALREADY_CANCELLED } from '@paddock/contract/refunds';
import { describeInZone } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { ValidationError } from '../../plugins/errors';
import { receiptMail, venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import { recordAudit } from '../audit/audit.service';
import { type RefundContext, visible } from './refund-context';
import * as repo from './refunds.repo';

export const NOT_A_NO_SHOW = 'This reservation is not marked as a no-show.';

/** What the no-show gave back, in words, for the refusal. */
function givenBack(refund: repo.RefundRow, currency: string): string {
  const parts: string[] = [];
  if (refund.cardCents > 0) parts.push(`${formatMoney(refund.cardCents, currency)} to the card`);
  if (refund.credits > 0) parts.push(`${refund.credits} club credits`);
  if (refund.voucherCents > 0)
    parts.push(`${formatMoney(refund.voucherCents, currency)} to the voucher`);
  return parts.length > 0 ? parts.join(', ') : 'part of the payment';
}

/** Staff: the driver came after all (or the mark was a slip). Nothing given back is taken again. */
export async function undoNoShow(ctx: RefundContext, caller: AuthUser, id: number) {
  await ctx.db.transaction(async (tx) => {
    const row = await visible(tx, caller, id, true);
    if (row.cancelledAt) throw ValidationError.nonField(ALREADY_CANCELLED);
    if (row.attendance !== 'no_show') throw ValidationError.nonField(NOT_A_NO_SHOW);
    const refund = await repo.findRefundOfReservation(tx, row.id);
    if (refund)
      throw ValidationError.nonField(
        `The no-show gave ${givenBack(refund, row.location.currency)} back, which cannot be taken again, so it cannot be undone. Check the driver in instead, and take the difference as a desk payment if one is owed.`,
      );
    await repo.clearAttendance(tx, row.id);
    await publishChange(tx, 'reservations', row.calendarId);
    await recordAudit(tx, caller, {
      action: 'reservation.no_show_undo',
      targetType: 'reservation',
      targetId: row.id,
      subjectUserId: row.userId,
      before: { attendance: 'no_show' },
      after: { attendance: null },
    });
  });
  await sendNoShowUndoneMail(ctx, id);
  return { detail: 'No-show undone.' };
}

/** The one mail that takes back the no-show's mail (the same customers it went to). */
async function sendNoShowUndoneMail(ctx: RefundContext, reservationId: number) {
  try {
    const row = await repo.findReservation(ctx.db, reservationId);
    if (!row || row.userId === null || row.isBlackout) return;
    const user = await repo.findUserContact(ctx.db, row.userId);
    if (!user?.email) return;
    const when = describeInZone(row.time, row.location.timezone);
    const name =
      user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    await ctx.mailer.send(
      await receiptMail({
        to: user.email,
        subject: `No longer a no-show: ${row.calendarName}, ${when}`,
        venue: venueOf(await getSettings(ctx.db), ctx.publicUrl),
        heading: 'The no-show mark is withdrawn',
        paragraphs: [
          `Hi ${name},`,
          `Your reservation for ${row.calendarName} at ${row.location.name} on ${when} is no longer marked as a no-show. Please ignore our earlier message saying it was.`,
          'Nothing about your payment has changed.',
        ],
        rows: [['Times shown in', row.location.timezone]],
        button: { label: 'Your reservations', href: '/dashboard' },
      }),
    );
  } catch (error) {
    ctx.logError(error, 'no-show undo mail failed');
  }
}
