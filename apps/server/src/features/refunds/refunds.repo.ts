import {
  and,
  asc,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  like,
  ne,
  sql,
  type SQLWrapper,
} from 'drizzle-orm';
import { checkouts, reservations, vouchers } from '../../db/schema/booking';
import { creditEntries } from '../../db/schema/club';
import { cards, charges } from '../../db/schema/payments';
import { moveCharges, refunds } from '../../db/schema/refunds';
import { calendars, locations } from '../../db/schema/venue';
import type { Queryable } from '../../plugins/payments/charge-card';

export type RefundRow = typeof refunds.$inferSelect;

const reservationColumns = {
  id: reservations.id,
  calendarId: reservations.calendarId,
  calendarName: calendars.name,
  slot: reservations.slot,
  time: reservations.time,
  userId: reservations.userId,
  subscriptionId: reservations.subscriptionId,
  paid: reservations.paid,
  amountCents: reservations.amountCents,
  isBlackout: reservations.isBlackout,
  checkoutId: reservations.checkoutId,
  chargeId: reservations.chargeId,
  cancelledAt: reservations.cancelledAt,
  attendance: reservations.attendance,
  location: locations,
};

/**
 * A reservation with its seat and location. `lock` takes the row lock for the rest of the
 * transaction: two cancels of one booking run one after the other, the second finding it cancelled.
 */
export async function findReservation(db: Queryable, id: number, lock = false) {
  // Locked on its own first: a join locked `for update` drops a row whose seat a concurrent move
  // changed (the recheck joins the old seat), where a fresh read after the lock sees the move.
  if (lock)
    await db
      .select({ id: reservations.id })
      .from(reservations)
      .where(eq(reservations.id, id))
      .for('update');
  const [row] = await db
    .select(reservationColumns)
    .from(reservations)
    .innerJoin(calendars, eq(calendars.id, reservations.calendarId))
    .innerJoin(locations, eq(locations.id, calendars.locationId))
    .where(eq(reservations.id, id));
  return row ?? null;
}
export type ReservationForRefund = NonNullable<Awaited<ReturnType<typeof findReservation>>>;

export async function findCheckout(db: Queryable, id: number) {
  const [row] = await db.select().from(checkouts).where(eq(checkouts.id, id));
  return row ?? null;
}

/** Every reservation a checkout created (cancelled ones too), in the order of its items. */
export async function checkoutReservationIds(db: Queryable, checkoutId: number) {
  const rows = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(eq(reservations.checkoutId, checkoutId))
    .orderBy(asc(reservations.id));
  return rows.map((r) => r.id);
}

/** Credits a subscription booking spent on this reservation. */
export async function creditsSpentOn(db: Queryable, reservationId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(-sum(${creditEntries.delta}), 0)::int` })
    .from(creditEntries)
    .where(
      and(eq(creditEntries.reservationId, reservationId), eq(creditEntries.reason, 'reservation')),
    );
  return Math.max(0, row?.n ?? 0);
}

export async function findVoucherByCode(db: Queryable, code: string) {
  const [row] = await db.select().from(vouchers).where(eq(vouchers.code, code));
  return row ?? null;
}

export async function creditVoucher(db: Queryable, voucherId: number, cents: number) {
  await db
    .update(vouchers)
    .set({ balanceCents: sql`${vouchers.balanceCents} + ${cents}` })
    .where(eq(vouchers.id, voucherId));
}

/** The checkout's own card charge, if it went through (`checkout-{id}`, decision 0006). */
export async function checkoutCharge(db: Queryable, checkoutId: number) {
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.idempotencyKey, `checkout-${checkoutId}`), eq(charges.errors, '')));
  return row ?? null;
}

export async function findCharge(db: Queryable, id: number) {
  const [row] = await db.select().from(charges).where(eq(charges.id, id));
  return row ?? null;
}

/** How money taken at the desk was paid, when one of these charges is a desk payment (0083). */
export async function deskMethodOf(db: Queryable, chargeIds: number[]) {
  if (chargeIds.length === 0) return null;
  const [row] = await db
    .select({ method: charges.method })
    .from(charges)
    .where(and(inArray(charges.id, chargeIds), isNotNull(charges.method)))
    .limit(1);
  return row?.method ?? null;
}

/** What earlier refunds already took (or will take) back from a charge. */
export async function cardRefundedFrom(db: Queryable, chargeId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${refunds.cardCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.chargeId, chargeId), ne(refunds.cardStatus, 'none')));
  return row?.n ?? 0;
}

export async function findCard(db: Queryable, userId: number) {
  const [row] = await db.select().from(cards).where(eq(cards.userId, userId));
  return row ?? null;
}

/** Who gets the receipt: the same lookup as a checkout's. */
export { findUserContact } from '../checkout/checkout.repo';

export async function insertRefund(db: Queryable, values: typeof refunds.$inferInsert) {
  const [row] = await db.insert(refunds).values(values).returning();
  return row;
}

export async function findRefund(db: Queryable, id: number, lock = false) {
  const query = db.select().from(refunds).where(eq(refunds.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The refund of a cancel or no-show (one at most); move refunds are not it. */
export async function findRefundOfReservation(db: Queryable, reservationId: number) {
  const [row] = await db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.reservationId, reservationId),
        eq(refunds.kind, 'cancel'),
        isNull(refunds.partOf),
      ),
    );
  return row ?? null;
}

/** What moves to cheaper seats already gave back on this reservation, per means. */
export async function movedBack(db: Queryable, reservationId: number) {
  const sum = (c: SQLWrapper) => sql<number>`coalesce(sum(${c}), 0)::int`;
  const [row] = await db
    .select({
      cardCents: sum(refunds.cardCents),
      taxCents: sum(refunds.taxCents),
      feeCents: sum(refunds.feeCents),
      credits: sum(refunds.credits),
      creditsCents: sum(refunds.creditsCents),
      voucherCents: sum(refunds.voucherCents),
    })
    .from(refunds)
    .where(and(eq(refunds.reservationId, reservationId), eq(refunds.kind, 'move')));
  return row;
}

/** Moves a reservation to another seat and slot (the unique seat-slot index may refuse it). */
export async function moveReservation(
  db: Queryable,
  id: number,
  to: { calendarId: number; slot: string; time: Date; amountCents?: number },
) {
  await db
    .update(reservations)
    .set({ ...to, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

export async function updateRefund(
  db: Queryable,
  id: number,
  values: Partial<typeof refunds.$inferInsert>,
) {
  await db
    .update(refunds)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(refunds.id, id));
}

/** The further card parts of a refund (one per further charge), in the order they were made. */
export async function refundParts(db: Queryable, refundId: number) {
  return db.select().from(refunds).where(eq(refunds.partOf, refundId)).orderBy(asc(refunds.id));
}

/** The charges of moves to dearer seats on this reservation, newest first. */
export async function moveChargesOf(db: Queryable, reservationId: number) {
  return db
    .select()
    .from(moveCharges)
    .where(eq(moveCharges.reservationId, reservationId))
    .orderBy(desc(moveCharges.id));
}

export async function insertMoveCharge(db: Queryable, values: typeof moveCharges.$inferInsert) {
  await db.insert(moveCharges).values(values);
}

/** How many charges of moves were attempted on this reservation (declines included). */
export async function moveChargeAttempts(db: Queryable, reservationId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(charges)
    .where(like(charges.idempotencyKey, `move-${reservationId}-%`));
  return row?.n ?? 0;
}

/** A line in the customer's transactions (spec: recent-transactions), once per key. */
export async function recordTransaction(db: Queryable, values: typeof charges.$inferInsert) {
  await db.insert(charges).values(values).onConflictDoNothing({ target: charges.idempotencyKey });
}

export async function markCancelled(db: Queryable, id: number, byUserId: number) {
  await db
    .update(reservations)
    .set({ cancelledAt: new Date(), cancelledById: byUserId, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

export async function markNoShow(db: Queryable, id: number) {
  await db
    .update(reservations)
    .set({ attendance: 'no_show', updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

export async function clearAttendance(db: Queryable, id: number) {
  await db
    .update(reservations)
    .set({ attendance: null, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

/** Refunds whose credits wait for the member's good standing. */
export async function waitingCredits(db: Queryable, userId: number) {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.userId, userId), eq(refunds.creditsStatus, 'waiting')))
    .for('update');
}

/** The member's latest charge that bought credits (an enrolment or a renewal). */
export async function latestClubCharge(db: Queryable, userId: number) {
  const [row] = await db
    .select({ charge: charges })
    .from(creditEntries)
    .innerJoin(charges, eq(charges.id, creditEntries.chargeId))
    .where(
      and(
        eq(creditEntries.userId, userId),
        isNotNull(creditEntries.chargeId),
        eq(charges.errors, ''),
        isNotNull(charges.chargeRef),
      ),
    )
    .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id))
    .limit(1);
  return row?.charge ?? null;
}
