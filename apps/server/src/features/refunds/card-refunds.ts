// After the commit: each card part sent to the provider once per attempt (or recorded as given
// back at the desk, 0083), staff retries of declined ones, then the receipt.
import type { CardRefundStatus } from '../../db/schema/refunds';
import type { AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import * as repo from './refunds.repo';
import { refundsCounter } from '../../plugins/business-metrics';
import type { RefundContext } from './refund-context';
import { withParts, refundView } from './refund-view';
import { transactionNotes } from './record-refund';
import { sendReceipt } from './refund-receipt';

/**
 * Sends a refund's card part to the provider, once per attempt: the key is `refund-{id}-{n}`,
 * `n` going up only after a recorded decline, so a repeat (a crash, a racing retry) refunds once
 * and a retry after a decline is a new attempt. The refund row is locked meanwhile. Every attempt
 * is a line in the customer's transactions (a decline with its message).
 */
export async function sendCardRefund(
  ctx: Pick<RefundContext, 'db' | 'payments'>,
  refundId: number,
) {
  return ctx.db.transaction(async (tx) => {
    const refund = await repo.findRefund(tx, refundId, true);
    if (!refund || refund.cardCents === 0 || refund.chargeId === null) return refund;
    if (refund.cardStatus === 'succeeded' || refund.cardStatus === 'none') return refund;
    const attempt = refund.cardStatus === 'failed' ? refund.attempts + 1 : refund.attempts;
    const charge = await repo.findCharge(tx, refund.chargeId);
    const row = await repo.findReservation(tx, refund.reservationId);
    const key = `refund-${refund.id}-${attempt}`;
    // Money taken at the desk goes back at the desk: recorded, never sent to the provider (0083).
    const desk = charge?.method ?? null;
    const result = desk
      ? { ok: true as const, refundRef: null }
      : charge?.chargeRef
        ? // Scoped by the charge (unique at the provider), as charges are by customer.
          await ctx.payments.refund(
            charge.chargeRef,
            refund.cardCents,
            `${charge.chargeRef}:${key}`,
          )
        : {
            ok: false as const,
            message: 'The original charge is not known to the provider.',
            refundRef: null,
          };
    await repo.recordTransaction(tx, {
      userId: refund.userId,
      amountCents: -refund.cardCents,
      currency: charge?.currency ?? row?.location.currency,
      notes: row ? transactionNotes(row, refund, desk) : 'Refund',
      errors: result.ok ? '' : result.message,
      chargeRef: result.refundRef,
      kind: 'refund',
      method: desk,
      takenById: desk ? refund.createdById : null,
      idempotencyKey: key,
    });
    await repo.updateRefund(tx, refund.id, {
      cardStatus: result.ok ? 'succeeded' : 'failed',
      attempts: attempt,
      lastError: result.ok ? '' : result.message,
      providerRef: result.refundRef,
    });
    return repo.findRefund(tx, refund.id);
  });
}

/** After the commit: the card parts, then the receipt. Neither undoes the cancellation. */
export async function finish(ctx: RefundContext, refund: repo.RefundRow | null) {
  if (!refund) return null;
  refundsCounter.inc();
  await sendCardParts(ctx, refund, ['pending']);
  const final = await repo.findRefund(ctx.db, refund.id);
  if (final) await sendReceipt(ctx, final);
  return final;
}

/** Sends the refund's card part and its further parts that are in one of `statuses`. */
async function sendCardParts(
  ctx: Pick<RefundContext, 'db' | 'payments' | 'logError'>,
  refund: repo.RefundRow,
  statuses: CardRefundStatus[],
) {
  for (const row of [refund, ...(await repo.refundParts(ctx.db, refund.id))]) {
    if (!statuses.includes(row.cardStatus)) continue;
    try {
      await sendCardRefund(ctx, row.id);
    } catch (error) {
      ctx.logError(error, 'card refund could not reach the provider; it stays pending');
    }
  }
}

/** Staff: try a declined (or unsent) card refund again (every part of it still owed). */
export async function retryRefund(ctx: RefundContext, caller: AuthUser, id: number) {
  const refund = await repo.findRefund(ctx.db, id);
  if (!refund || refund.partOf !== null) throw new NotFound();
  const before = await withParts(ctx.db, refund);
  if (before.cardStatus !== 'failed' && before.cardStatus !== 'pending')
    throw ValidationError.nonField('This refund has nothing left to send to the card.');
  await sendCardParts(ctx, refund, ['failed', 'pending']);
  const final = await repo.findRefund(ctx.db, id);
  const after = final ? await withParts(ctx.db, final) : null;
  await ctx.db.transaction((tx) =>
    recordAudit(tx, caller, {
      action: 'refund.retry',
      targetType: 'refund',
      targetId: id,
      subjectUserId: refund.userId,
      before: { card_status: before.cardStatus, last_error: before.lastError },
      after: { card_status: after?.cardStatus, last_error: after?.lastError },
    }),
  );
  if (final && after?.cardStatus === 'succeeded') await sendReceipt(ctx, final);
  return {
    detail: after?.cardStatus === 'succeeded' ? 'Refunded to the card.' : (after?.lastError ?? ''),
    refund: final ? await refundView(ctx.db, final) : null,
  };
}

/** The after-commit half for refunds recorded inside someone else's transaction (the planner). */
export async function finishRefunds(ctx: RefundContext, list: (repo.RefundRow | null)[]) {
  const done = [];
  for (const refund of list) done.push(await finish(ctx, refund));
  return done;
}
