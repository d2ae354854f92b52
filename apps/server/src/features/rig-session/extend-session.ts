import { and, eq, isNull } from 'drizzle-orm';
import { auditEvents } from '../../db/schema/audit';
import { reservations } from '../../db/schema/booking';
import { describeInZone, isoInZone, SLOT_MINUTES } from '../../lib/slots';
import type { Queryable } from '../../plugins/payments/charge-card';
import { loadAuthUser, type AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import { processCheckout, quoteCheckout, type CheckoutContext } from '../checkout/checkout.service';
import { runningSession, slotAt, type Rig } from './rig-session.service';
import { oneSeatNow, type SeatSession } from './seat-now';

export const NOT_A_CUSTOMER_SESSION = 'Only a customer’s own booking can be extended here.';
export const ENDS_MOVED_ON =
  'The session’s end changed since the screen read it: the screen reads it again.';

/** The audit row of the half-hour booked at `from` on the seat, written once. */
async function auditExtension(
  db: Queryable,
  seat: number,
  seatName: string,
  zone: string,
  session: SeatSession,
  from: number,
) {
  const [booked] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        eq(reservations.calendarId, seat),
        eq(reservations.time, new Date(from)),
        isNull(reservations.cancelledAt),
      ),
    );
  if (!booked) return;
  const [done] = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'rig_session.extend'), eq(auditEvents.targetId, booked.id)));
  if (done) return;
  await recordAudit(db, null, {
    action: 'rig_session.extend',
    targetType: 'reservation',
    targetId: booked.id,
    subjectUserId: session.customer,
    before: { ends: describeInZone(new Date(from), zone) },
    after: { ends: describeInZone(new Date(from + SLOT_MINUTES * 60_000), zone), seat: seatName },
  });
}

/**
 * One tap on the rig screen (issue 42, decision 0120): the booked customer's session gets the
 * following half-hour, booked through the checkout's one path as the customer (`quoteCheckout`
 * then `processCheckout`): the same price, club credits first, the saved card charged (on
 * session: the customer is at the rig), no card or a decline leaves it booked unpaid (pay at the
 * desk), the confirmation mail as for any booking. `ends` is the end the screen showed: a retry
 * after a lost answer finds the session already ending later and answers so, never booking a
 * second half-hour.
 */
export async function extendRigSession(
  ctx: CheckoutContext,
  rig: Rig,
  body: { reservation: number; ends: string },
  now = new Date(),
) {
  const { seat, session } = await runningSession(ctx.db, rig, body.reservation, now);
  if (session.customer === null) throw ValidationError.nonField(NOT_A_CUSTOMER_SESSION);
  const shown = new Date(body.ends).getTime();
  const answer = async (detail: string) => {
    const after = await oneSeatNow(ctx.db, seat.seat, now);
    const current = after?.current ?? session;
    return {
      detail,
      ends: isoInZone(current.ends, seat.timezone),
      paid: current.paid,
    };
  };
  if (session.ends.getTime() > shown) {
    // A retry after a lost answer (or a crash before the audit row): the trail is completed once.
    await auditExtension(ctx.db, seat.seat, seat.seatName, seat.timezone, session, shown);
    return answer('Already extended.');
  }
  if (session.ends.getTime() !== shown) throw ValidationError.field('ends', ENDS_MOVED_ON);
  const customer = await loadAuthUser(ctx.db, session.customer);
  if (!customer) throw ValidationError.nonField(NOT_A_CUSTOMER_SESSION);

  const slot = slotAt(session.ends, seat.timezone);
  const quote = await quoteCheckout(
    ctx,
    customer,
    { reservations: [{ calendar: seat.seat, slot }] },
    now,
  );
  const result = await processCheckout(ctx, customer, quote.checkout_id, now);
  if (result.statusCode === 409)
    throw ValidationError.nonField((result.body as { detail: string }).detail);
  await auditExtension(ctx.db, seat.seat, seat.seatName, seat.timezone, session, shown);
  return answer('Extended by 30 minutes.');
}

/**
 * The same one tap in the app, on the customer's own booking while its session runs (issue 42):
 * the session of that booking's seat, extended as on the rig. Someone else's booking is not found.
 */
export async function extendOwnSession(
  ctx: CheckoutContext,
  caller: AuthUser,
  id: number,
  body: { ends: string },
  now = new Date(),
) {
  const [row] = await ctx.db
    .select({ calendarId: reservations.calendarId, userId: reservations.userId })
    .from(reservations)
    .where(and(eq(reservations.id, id), isNull(reservations.cancelledAt)));
  if (!row || row.userId !== caller.id) throw new NotFound();
  return extendRigSession(
    ctx,
    { id: 0, calendarId: row.calendarId },
    { reservation: id, ends: body.ends },
    now,
  );
}
