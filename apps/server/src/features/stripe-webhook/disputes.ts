import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { formatMoney } from '@paddock/contract/money';
import { userPermissions, users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { paymentDisputes } from '../../db/schema/payments';
import { moveCharges } from '../../db/schema/refunds';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import type { EventContext } from './event-context';
import { chargeOfIntent, intentRefOf } from './provider-refunds';

/** Staff told of a dispute: those who see the money (the reports), and superusers. */
export const DISPUTE_PERMISSION = 'reports.view_report';

/** The bookings a charge paid: a checkout's, or a move's to a dearer seat. */
export async function bookingsOf(db: Queryable, chargeId: number): Promise<number[]> {
  const rows = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(eq(reservations.chargeId, chargeId))
    .union(
      db
        .select({ id: moveCharges.reservationId })
        .from(moveCharges)
        .where(eq(moveCharges.chargeId, chargeId)),
    );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * A chargeback opened or closed on one of our charges: the dispute row is the flag on the
 * customer and on the bookings the charge paid (open until closed), with an audit row and a
 * mail to the staff who see the money. Each change is recorded once: an opening already known,
 * or a closing already recorded, does nothing (a handler tried again after a failure).
 */
export async function recordDispute(
  ctx: EventContext,
  dispute: Stripe.Dispute,
  change: 'opened' | 'closed',
) {
  const intentRef = intentRefOf(dispute);
  const charge = intentRef ? await chargeOfIntent(ctx, intentRef) : null;
  if (!charge) {
    ctx.logInfo({ dispute: dispute.id }, 'Stripe: a dispute on a charge Paddock did not make');
    return;
  }
  const values = {
    disputeRef: dispute.id,
    chargeId: charge.id,
    userId: charge.userId,
    amountCents: dispute.amount,
    currency: dispute.currency.toUpperCase(),
    reason: dispute.reason,
    status: dispute.status,
  };
  const recorded = await ctx.db.transaction(async (tx) => {
    const changed =
      change === 'opened'
        ? await tx
            .insert(paymentDisputes)
            .values(values)
            .onConflictDoNothing({ target: paymentDisputes.disputeRef })
            .returning()
        : // Closed: the open row, or a new closed one when the opening never reached us.
          await tx
            .insert(paymentDisputes)
            .values({ ...values, closedAt: new Date() })
            .onConflictDoUpdate({
              target: paymentDisputes.disputeRef,
              set: { status: values.status, closedAt: new Date() },
              setWhere: isNull(paymentDisputes.closedAt),
            })
            .returning();
    if (changed.length === 0) return null;
    const bookings = await bookingsOf(tx, charge.id);
    await recordAudit(tx, null, {
      action: change === 'opened' ? 'payment.dispute_opened' : 'payment.dispute_closed',
      targetType: 'charge',
      targetId: charge.id,
      subjectUserId: charge.userId,
      after: {
        dispute: dispute.id,
        status: dispute.status,
        reason: dispute.reason,
        amount_cents: dispute.amount,
        currency: values.currency,
        reservations: bookings,
      },
    });
    return { bookings };
  });
  if (recorded) await tellStaff(ctx, dispute, change, charge, recorded.bookings);
}

async function tellStaff(
  ctx: EventContext,
  dispute: Stripe.Dispute,
  change: 'opened' | 'closed',
  charge: { id: number; userId: number | null; notes: string },
  bookings: number[],
) {
  const staff = await ctx.db
    .selectDistinct({ email: users.email })
    .from(users)
    .leftJoin(
      userPermissions,
      and(eq(userPermissions.userId, users.id), eq(userPermissions.permission, DISPUTE_PERMISSION)),
    )
    .where(
      and(
        eq(users.isActive, true),
        sql`${users.email} <> ''`,
        or(
          eq(users.isSuperuser, true),
          and(eq(users.isStaff, true), sql`${userPermissions.userId} is not null`),
        ),
      ),
    );
  const [customer] = charge.userId
    ? await ctx.db
        .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.id, charge.userId))
    : [];
  const who = customer
    ? `${[customer.firstName, customer.lastName].filter(Boolean).join(' ')} <${customer.email}>`
    : 'a deleted customer';
  const amount = formatMoney(dispute.amount, dispute.currency.toUpperCase());
  const subject =
    change === 'opened'
      ? `Payment disputed: ${amount} by ${who}`
      : `Dispute closed (${dispute.status}): ${amount} by ${who}`;
  const text = [
    change === 'opened'
      ? `A customer's bank has opened a dispute (chargeback) on a card payment.`
      : `A dispute on a card payment has closed: ${dispute.status}.`,
    '',
    `Customer: ${who}${charge.userId ? ` (${ctx.publicUrl}/admin/user/${charge.userId})` : ''}`,
    `Charge: #${charge.id} ${charge.notes}`,
    `Amount: ${amount}`,
    `Reason: ${dispute.reason}`,
    `Bookings: ${bookings.length ? bookings.map((b) => `#${b}`).join(', ') : 'none'}`,
    '',
    `Answer it in the Stripe dashboard: https://dashboard.stripe.com/disputes/${dispute.id}`,
  ].join('\n');
  try {
    await ctx.mailer.sendAll(staff.map((s) => ({ to: s.email, subject, text })));
  } catch (error) {
    // The flag and the audit row stand; the mail is not worth handling the event again.
    ctx.logError(error, `dispute ${dispute.id}: the staff mail failed`);
  }
}
