import { and, eq } from 'drizzle-orm';
import { formatMoney } from '@paddock/contract/money';
import type { CheckoutResult } from '../../db/schema/booking';
import { checkouts } from '../../db/schema/booking';
import { charges } from '../../db/schema/payments';
import type { Db } from '../../db/client';
import type { Mailer } from '../../plugins/mail';
import type { PaymentProvider } from '../../plugins/payments/provider';
import { refundInFull } from '../../plugins/payments/refund-in-full';
import { receiptMail, venueOf } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import { recordAudit } from '../audit/audit.service';
import * as repo from './checkout.repo';

// Seats cancelled while the bank checked their payment, and the payment then went through
// (issue 40, decision 0114): the checkout answers so, and the money repair gives it all back.

/** What the customer reads, wherever they ask (the retry, the web's return, the webhook). */
export const REFUND_OWED_MESSAGE =
  'Your booking was cancelled while your bank checked the payment. The payment went through, ' +
  'so all of it is being refunded to your card; it shows in your transactions.';

/** A pass takes this many at most; the next pass takes the rest. */
const PASS_LIMIT = 200;

/**
 * Ends a checkout whose payment went through when none of its seats was held any more: stored as
 * `refund_owed` with the answer above, under the row lock, unless another finisher stored an
 * answer first. The refund itself is the money repair's (`refundOwedCheckouts`), so a crash
 * between the two loses nothing: the status is the record that money is owed.
 */
export async function oweRefund(
  db: Db,
  checkout: repo.CheckoutRow,
  chargeRef: string | null,
): Promise<{ result: CheckoutResult; finishedNow: boolean }> {
  return db.transaction(async (tx) => {
    const row = (await repo.lockCheckout(tx, checkout.id))!;
    if (row.result) return { result: row.result, finishedNow: false };
    const result: CheckoutResult = {
      statusCode: 409,
      body: { detail: REFUND_OWED_MESSAGE, code: 'booking_cancelled_refunded' },
    };
    await repo.updateCheckout(tx, checkout.id, {
      status: 'refund_owed',
      result,
      chargeRef,
      processedAt: new Date(),
    });
    return { result, finishedNow: true };
  });
}

export type RefundOwedContext = {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
};

/**
 * The money repair's step: every checkout owed a refund gets its charge back in full, once (the
 * refund's key `stray-refund-{charge}`), then is `refunded`, audited and mailed. A declined or
 * unreachable refund stays owed for the next pass. Answers how many were refunded.
 */
export async function refundOwedCheckouts(ctx: RefundOwedContext): Promise<number> {
  const owed = await ctx.db
    .select()
    .from(checkouts)
    .where(eq(checkouts.status, 'refund_owed'))
    .orderBy(checkouts.id)
    .limit(PASS_LIMIT);
  let refunded = 0;
  for (const checkout of owed) {
    try {
      if (await refundOne(ctx, checkout)) refunded += 1;
    } catch (error) {
      ctx.logError(error, `money repair could not refund checkout ${checkout.id}`);
    }
  }
  return refunded;
}

async function refundOne(ctx: RefundOwedContext, checkout: repo.CheckoutRow): Promise<boolean> {
  const [charge] = await ctx.db
    .select()
    .from(charges)
    .where(and(eq(charges.idempotencyKey, `checkout-${checkout.id}`), eq(charges.errors, '')));
  if (!charge) throw new Error(`checkout ${checkout.id} owes a refund of a charge it lacks`);
  const ok = await refundInFull(
    ctx.db,
    ctx.payments,
    charge,
    `Refund of booking #${checkout.id}: its seats were cancelled while the bank checked the payment`,
  );
  if (!ok) {
    ctx.logError(new Error('refund declined'), `checkout ${checkout.id} refund not given back`);
    return false;
  }
  const done = await ctx.db.transaction(async (tx) => {
    const moved = await tx
      .update(checkouts)
      .set({ status: 'refunded' })
      .where(and(eq(checkouts.id, checkout.id), eq(checkouts.status, 'refund_owed')))
      .returning({ id: checkouts.id });
    if (moved.length === 0) return false;
    await recordAudit(tx, null, {
      action: 'checkout.refund_cancelled_while_paying',
      targetType: 'checkout',
      targetId: checkout.id,
      subjectUserId: checkout.userId,
      after: { amount: formatMoney(charge.amountCents, charge.currency), to: 'card' },
    });
    return true;
  });
  if (done) await mailRefund(ctx, checkout, charge.amountCents, charge.currency);
  return done;
}

/** One mail: what was cancelled, and that every cent of the payment goes back to the card. */
async function mailRefund(
  ctx: RefundOwedContext,
  checkout: repo.CheckoutRow,
  cents: number,
  currency: string,
) {
  try {
    const user = await repo.findUserContact(ctx.db, checkout.userId);
    if (!user?.email) return;
    const settings = await getSettings(ctx.db);
    const name =
      user.racerName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    const seats = checkout.items.length === 1 ? 'seat' : `${checkout.items.length} seats`;
    await ctx.mailer.send(
      await receiptMail({
        to: user.email,
        subject: `Refund receipt: booking #${checkout.id}`,
        venue: venueOf(settings, ctx.publicUrl),
        heading: 'Your payment is refunded in full',
        paragraphs: [
          `Hi ${name},`,
          `Your booking #${checkout.id} (${seats}) was cancelled while your bank checked the payment. The payment went through afterwards, so all of it goes back to your card.`,
          'What comes back:',
        ],
        lines: [`${formatMoney(cents, currency)} back to your card`],
        rows: [],
        button: { label: 'Your transactions', href: '/dashboard' },
        notes: ['Card refunds usually reach your account within 5–10 working days.'],
      }),
    );
  } catch (error) {
    ctx.logError(error, `refund mail for checkout ${checkout.id} not sent`);
  }
}
