// The one mail of a cancellation or a no-show that gives nothing back (issue 41): a late cancel
// whose payment the policy keeps, a no-show, an unpaid booking let go. A refund's own mail is the
// refund receipt (refund-receipt.ts); this is for the cases with no refund row.
import { formatMoney } from '@paddock/contract/money';
import { shareValueCents } from '../../lib/refund-split';
import { describeInZone } from '../../lib/slots';
import { receiptMail, venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { RefundContext } from './refund-context';
import { plan } from './refund-plan';
import * as repo from './refunds.repo';

export type NothingBack = { reservationId: number; kind: 'cancel' | 'no_show' };

/** Why nothing comes back, in the customer's words. */
export function keptReason(
  kind: NothingBack['kind'],
  paid: string | null,
  windowHours: number,
): string {
  if (paid === null) return 'Nothing was paid for it, so nothing comes back and nothing is owed.';
  if (kind === 'no_show')
    return `Nothing comes back: under the cancellation policy, the payment (${paid}) is kept when a driver does not come.`;
  return `Nothing comes back: it was cancelled less than ${windowHours} hours before it starts, and under the cancellation policy the payment (${paid}) is kept then.`;
}

/** After the commit; a failure is logged and never undoes the cancellation. */
export async function sendNothingBackMail(ctx: RefundContext, notice: NothingBack) {
  try {
    const row = await repo.findReservation(ctx.db, notice.reservationId);
    if (!row || row.userId === null || row.isBlackout) return;
    const user = await repo.findUserContact(ctx.db, row.userId);
    if (!user?.email) return;
    const p = await plan(ctx.db, row, 'policy', new Date());
    const paidCents = shareValueCents(p.paid.share);
    const paid = paidCents > 0 ? formatMoney(paidCents, row.location.currency) : null;
    const when = describeInZone(row.time, row.location.timezone);
    const name =
      user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    const noShow = notice.kind === 'no_show';
    await ctx.mailer.send(
      await receiptMail({
        to: user.email,
        subject: noShow
          ? `Marked as a no-show: ${row.calendarName}, ${when}`
          : `Cancelled: ${row.calendarName}, ${when}`,
        venue: venueOf(await getSettings(ctx.db), ctx.publicUrl),
        heading: noShow ? 'You were marked as a no-show' : 'Your reservation is cancelled',
        paragraphs: [
          `Hi ${name},`,
          noShow
            ? `Your reservation for ${row.calendarName} at ${row.location.name} on ${when} was marked as a no-show.`
            : `Your reservation for ${row.calendarName} at ${row.location.name} on ${when} is cancelled.`,
          keptReason(notice.kind, paid, p.policy.windowHours),
        ],
        rows: [
          ['Paid', paid ?? formatMoney(0, row.location.currency)],
          ['Comes back', formatMoney(0, row.location.currency)],
          ['Times shown in', row.location.timezone],
        ],
        button: { label: 'Your reservations', href: '/dashboard' },
        notes: [`Cancellation policy: ${p.policy.text}`],
      }),
    );
  } catch (error) {
    ctx.logError(error, 'cancellation mail failed');
  }
}
