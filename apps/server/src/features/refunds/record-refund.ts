// Inside the cancelling transaction: the refund's rows, the credits and voucher value given
// back at once, the audit, the transaction lines. The card part is sent after the commit
// (card-refunds.ts).
import { formatMoney } from '@paddock/contract/money';
import { DESK_METHOD_PHRASES, type DeskMethod } from '@paddock/contract/charges';
import { shareValueCents } from '../../lib/refund-split';
import { allocateCents } from '../../lib/money';
import { describeInZone } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { addCredits } from '../../plugins/club-membership';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import * as repo from './refunds.repo';
import { type Choice, type Plan, plan, cardParts } from './refund-plan';

/**
 * Inside the caller's transaction (the reservation already locked by `findReservation(…, true)`):
 * records the refund (one per reservation), gives the credits and the voucher value back, records
 * who, when and why. The card part is only recorded here as pending: `sendCardRefund` after the
 * commit. Returns the refund (null when nothing was paid and nothing is recorded).
 */
export async function refundInTransaction(
  tx: Queryable,
  caller: AuthUser,
  row: repo.ReservationForRefund,
  input: { choice: Choice; reason: string; cancel: boolean },
  now: Date,
): Promise<repo.RefundRow | null> {
  const p = await plan(tx, row, input.choice, now);
  if (input.cancel) {
    await repo.markCancelled(tx, row.id, caller.id);
    await publishChange(tx, 'reservations', row.calendarId);
  } else {
    await repo.markNoShow(tx, row.id);
    await publishChange(tx, 'reservations', row.calendarId);
  }
  const paidCents = shareValueCents(p.paid.share);
  let refund: repo.RefundRow | null = null;
  const s = p.split;
  // Nothing back under the policy (a late cancel keeping everything): no refund to record, the
  // audit keeps why. Staff's explicit "no refund" is recorded, with its reason.
  const record = paidCents > 0 && (s.totalCents > 0 || input.choice === 'none');
  if (record && !(await repo.findRefundOfReservation(tx, row.id))) {
    refund = await recordRefundParts(tx, caller, row, p, {
      kind: 'cancel',
      choice: input.choice,
      reason: input.reason,
      keptCents: s.keptCents,
    });
  }
  await recordAudit(tx, caller, {
    action: input.cancel ? 'reservation.cancel' : 'reservation.no_show',
    targetType: 'reservation',
    targetId: row.id,
    subjectUserId: row.userId,
    before: {
      slot: row.slot,
      calendar: row.calendarId,
      paid: row.paid,
      attendance: row.attendance,
    },
    after: {
      refund: input.choice,
      reason: input.reason,
      free: p.free,
      paid_cents: paidCents,
      card_cents: s.cardCents,
      credits: s.credits,
      voucher_cents: s.voucherCents,
      kept_cents: s.keptCents,
    },
  });
  return refund;
}

/**
 * Records a refund of `p.split` and gives back at once what goes back at once: the credits (unless
 * they wait for good standing) and the voucher value. A refund without a card part gets its
 * transaction line here; a card part is pending until `sendCardRefund` after the commit.
 */
export async function recordRefundParts(
  tx: Queryable,
  caller: AuthUser,
  row: repo.ReservationForRefund,
  p: Plan,
  fields: { kind: 'cancel' | 'move'; choice: Choice; reason: string; keptCents: number },
): Promise<repo.RefundRow> {
  const s = p.split;
  // The card part comes back from each charge it was paid with (a move to a dearer seat is a
  // charge of its own): the first charge's part on this row, the others on rows of their own.
  const duplicateCents = p.duplicates.reduce((n, d) => n + d.cents, 0);
  const policyCents = s.cardCents - duplicateCents;
  const parts = [
    ...(policyCents > 0 ? await cardParts(tx, p.paid.charges, policyCents) : []),
    ...p.duplicates,
  ];
  const taxes = allocateCents(
    s.taxCents,
    parts.map((c) => c.cents),
  );
  const refund = await repo.insertRefund(tx, {
    reservationId: row.id,
    kind: fields.kind,
    userId: row.userId,
    checkoutId: row.checkoutId,
    choice: fields.choice,
    reason: fields.reason,
    paidCents: shareValueCents(p.paid.share),
    keptCents: fields.keptCents,
    cardCents: parts[0]?.cents ?? 0,
    taxCents: taxes[0] ?? 0,
    feeCents: s.feeCents,
    credits: s.credits,
    creditsCents: s.creditsCents,
    creditsStatus: s.credits === 0 ? 'none' : p.creditsWait ? 'waiting' : 'returned',
    voucherCents: s.voucherCents,
    voucherId: s.voucherCents > 0 ? p.paid.voucherId : null,
    chargeId: parts[0]?.chargeId ?? null,
    cardStatus: parts.length > 0 ? 'pending' : 'none',
    calendarId: row.calendarId,
    locationId: row.location.id,
    slot: row.slot,
    createdById: caller.id,
  });
  if (s.credits > 0 && !p.creditsWait && row.userId !== null)
    await addCredits(tx, {
      userId: row.userId,
      credits: s.credits,
      reason: 'refund',
      reservationId: row.id,
      checkoutId: row.checkoutId,
    });
  if (s.voucherCents > 0 && p.paid.voucherId !== null)
    await repo.creditVoucher(tx, p.paid.voucherId, s.voucherCents);
  for (const [i, part] of parts.entries())
    if (i > 0)
      await repo.insertRefund(tx, {
        reservationId: row.id,
        kind: fields.kind,
        partOf: refund.id,
        userId: row.userId,
        checkoutId: row.checkoutId,
        choice: fields.choice,
        reason: fields.reason,
        paidCents: 0,
        keptCents: 0,
        cardCents: part.cents,
        taxCents: taxes[i],
        feeCents: 0,
        credits: 0,
        creditsCents: 0,
        voucherCents: 0,
        chargeId: part.chargeId,
        cardStatus: 'pending',
        calendarId: row.calendarId,
        locationId: row.location.id,
        slot: row.slot,
        createdById: caller.id,
      });
  if (parts.length === 0)
    await repo.recordTransaction(tx, {
      userId: row.userId,
      amountCents: 0,
      currency: row.location.currency,
      notes: transactionNotes(row, refund),
      kind: 'refund',
      idempotencyKey: `refund-${refund.id}-0`,
    });
  return refund;
}

export function transactionNotes(
  row: repo.ReservationForRefund,
  refund: repo.RefundRow,
  desk: DeskMethod | null = null,
): string {
  const parts = [];
  if (refund.cardCents > 0)
    parts.push(
      desk
        ? `${formatMoney(refund.cardCents, row.location.currency)} given back ${DESK_METHOD_PHRASES[desk]}`
        : `${formatMoney(refund.cardCents, row.location.currency)} to card`,
    );
  if (refund.credits > 0)
    parts.push(
      `${refund.credits} credits${refund.creditsStatus === 'waiting' ? ' (waiting for good standing)' : ''}`,
    );
  if (refund.voucherCents > 0)
    parts.push(`${formatMoney(refund.voucherCents, row.location.currency)} to voucher`);
  if (parts.length === 0) parts.push('nothing back');
  const line = `Refund: ${row.calendarName}, ${describeInZone(row.time, row.location.timezone)} (${parts.join(', ')})`;
  // Desk money is recorded as the desk payment was: with the staff member's note.
  return desk && refund.reason ? `${line}: ${refund.reason}` : line;
}

export { findReservation as findReservationForRefund } from './refunds.repo';
