// The refund receipt mail; a failure is logged and never undoes the refund.
import { describeInZone } from '../../lib/slots';
import { getSettings } from '../../plugins/settings';
import { refundMail } from './refund-mail';
import { venueOf } from '../../plugins/receipt-mail';
import * as repo from './refunds.repo';
import type { RefundContext } from './refund-context';
import { refundView } from './refund-view';

/** The refund receipt (HTML and text) through the mailer (the outbox without SMTP). */
export async function sendReceipt(ctx: RefundContext, refund: repo.RefundRow) {
  try {
    if (refund.userId === null) return;
    const user = await repo.findUserContact(ctx.db, refund.userId);
    const row = await repo.findReservation(ctx.db, refund.reservationId);
    if (!user?.email || !row) return;
    const view = await refundView(ctx.db, refund);
    const settings = await getSettings(ctx.db);
    await ctx.mailer.send(
      await refundMail({
        to: user.email,
        name:
          user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email,
        venue: venueOf(settings, ctx.publicUrl),
        seatName: row.calendarName,
        when: describeInZone(row.time, row.location.timezone),
        locationName: row.location.name,
        timezone: row.location.timezone,
        lines: view.refund.lines,
        cardFailed: view.card_status === 'failed',
        moved: refund.kind === 'move',
      }),
    );
  } catch (error) {
    ctx.logError(error, 'refund receipt mail failed');
  }
}
