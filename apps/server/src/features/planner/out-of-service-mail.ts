import { describeInZone } from '../../lib/slots';
import { receiptMail, venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { locations } from '../../db/schema/venue';
import type { RefundContext } from '../refunds/refund-context';
import * as refundsRepo from '../refunds/refunds.repo';

/** One booking of a customer's that the broken seat affected: moved to `to`, or cancelled. */
export type Notice = {
  userId: number;
  time: Date;
  from: string;
  to: string | null;
  paid: boolean;
};

/**
 * One e-mail per customer (the receipt template) saying what happened to each of their
 * half-hours on the broken seat. After the commit; a mail failure is only logged (the refund
 * receipt of a cancelled paid booking goes as well, from the refund path).
 */
export async function sendOutOfServiceMails(
  ctx: RefundContext,
  location: typeof locations.$inferSelect,
  notices: Notice[],
) {
  const byUser = new Map<number, Notice[]>();
  for (const n of notices) byUser.set(n.userId, [...(byUser.get(n.userId) ?? []), n]);
  if (byUser.size === 0) return;
  const settings = await getSettings(ctx.db);
  for (const [userId, list] of byUser) {
    try {
      const user = await refundsRepo.findUserContact(ctx.db, userId);
      if (!user?.email) continue;
      const name =
        user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
      const when = (n: Notice) => describeInZone(n.time, location.timezone);
      const anyCancelled = list.some((n) => n.to === null);
      await ctx.mailer.send(
        await receiptMail({
          to: user.email,
          subject: anyCancelled
            ? `Your reservation at ${location.name} has changed`
            : `Your reservation has moved to ${list[0].to}`,
          venue: venueOf(settings, ctx.publicUrl),
          heading: `${list[0].from} is out of service`,
          paragraphs: [
            `Hi ${name},`,
            `The simulator you booked at ${location.name} is out of service. We are sorry for the change.`,
          ],
          lines: list.map((n) =>
            n.to
              ? `${when(n)}: moved to ${n.to}, same time and price.`
              : n.paid
                ? `${when(n)}: no comparable seat is free, so it is cancelled; the refund has its own e-mail.`
                : `${when(n)}: no comparable seat is free, so it is cancelled; nothing is owed for it.`,
          ),
          rows: [['Times shown in', location.timezone]],
          button: { label: 'Your reservations', href: '/dashboard' },
        }),
      );
    } catch (error) {
      ctx.logError(error, 'out-of-service e-mail could not be sent');
    }
  }
}
