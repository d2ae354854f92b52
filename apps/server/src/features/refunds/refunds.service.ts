import {
  ALREADY_CANCELLED,
  CANCELLED_MESSAGE,
  REASON_REQUIRED,
  type CancelQuote,
  type CancelResponse,
  type RefundBreakdown,
  type RefundChoice,
  type RefundView,
} from '@paddock/contract/refunds';
import { formatMoney } from '@paddock/contract/money';
import {
  DESK_METHOD_PHRASES,
  PAYMENT_METHOD_LABELS,
  type DeskMethod,
} from '@paddock/contract/charges';
import { CENTS_PER_CREDIT } from '@paddock/contract/club';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import {
  describeDeadline,
  freeUntil,
  isFreeCancellation,
  type CancellationPolicy,
} from '../../lib/cancellation-policy';
import {
  capCard,
  emptyShare,
  refundOf,
  shareLess,
  shareOfCheckout,
  shareValueCents,
  type PaidShare,
  type RefundSplit,
} from '../../lib/refund-split';
import { allocateCents } from '../../lib/money';
import { describeInZone } from '../../lib/slots';
import type { CardRefundStatus } from '../../db/schema/refunds';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { addCredits, isClubMemberInGoodStanding } from '../../plugins/club-membership';
import { Forbidden, NotFound, ValidationError } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import type { Queryable } from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import { getSettings } from '../../plugins/settings';
import { recordAudit } from '../audit/audit.service';
import { refundMail } from './refund-mail';
import { venueOf } from '../../plugins/receipt-mail';
import { seatFreed } from '../waitlist/waitlist.service';
import * as repo from './refunds.repo';
import { refundsCounter } from '../../plugins/business-metrics';
import { settleCheckout } from '../checkout/finish-checkout';
import { policyFor } from './refund-policy';

export type RefundContext = {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
};

/** The context from the app's dependencies (a feature's routes build it once). */
export function refundContext(deps: Deps, logError: RefundContext['logError']): RefundContext {
  return {
    db: deps.database.db,
    payments: deps.payments,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    logError,
  };
}

/** Choices only staff may make; a customer's cancel always follows the policy. */
type Choice = RefundChoice | 'no_show';

const isStaff = (caller: AuthUser) => hasPermission(caller, 'reservations.change_reservation');

type Paid = {
  share: PaidShare;
  chargeId: number | null;
  voucherId: number | null;
  /**
   * Every charge the card part came from, the order card refunds take them in: moves to dearer
   * seats newest first, then the booking's own charge.
   */
  charges: number[];
  /**
   * A second charge of the same booking (old data: paid by its checkout's charge and again by
   * an outstanding-balance capture, decision 0072): given back in full whatever the policy.
   */
  duplicates: CardPart[];
};

type CardPart = { chargeId: number; cents: number };

/**
 * What this reservation was paid with: its share of its checkout, its credits, or its card, and
 * the differences charged when it moved to dearer seats (docs/decisions/0040).
 */
async function paidFor(db: Queryable, row: repo.ReservationForRefund): Promise<Paid> {
  const own = await paidAtBooking(db, row);
  const extra = await repo.moveChargesOf(db, row.id);
  const sum = (f: (c: (typeof extra)[number]) => number) => extra.reduce((n, c) => n + f(c), 0);
  return {
    ...own,
    share: {
      ...own.share,
      cardCents: own.share.cardCents + sum((c) => c.cardCents),
      taxCents: own.share.taxCents + sum((c) => c.taxCents),
      feeCents: own.share.feeCents + sum((c) => c.feeCents),
    },
    charges: [...extra.map((c) => c.chargeId), ...(own.chargeId === null ? [] : [own.chargeId])],
  };
}

async function paidAtBooking(
  db: Queryable,
  row: repo.ReservationForRefund,
): Promise<Omit<Paid, 'charges'>> {
  let byCard = row.paid && row.chargeId !== null;
  let chargeId = row.chargeId;
  const duplicates: CardPart[] = [];
  if (row.checkoutId !== null) {
    const checkout = await repo.findCheckout(db, row.checkoutId);
    // The checkout's charge paid the booking even where a crash left it marked unpaid (or
    // paid by another charge since): every charge that belongs to it comes back (0072).
    const own = await repo.checkoutCharge(db, row.checkoutId);
    if (own) {
      if (byCard && row.chargeId !== own.id)
        duplicates.push({ chargeId: row.chargeId!, cents: row.amountCents });
      byCard = true;
      chargeId = own.id;
    }
    const ids = await repo.checkoutReservationIds(db, row.checkoutId);
    const index = ids.indexOf(row.id);
    if (checkout && index >= 0 && index < checkout.items.length) {
      const a = checkout.amounts;
      const share = shareOfCheckout(
        {
          items: checkout.items,
          cardCents: a.totalCents,
          salesTaxCents: a.salesTaxCents,
          creditsUsing: a.creditsUsing,
          creditsValueCents: a.creditsValueCents,
          voucherCents: a.discountCents,
        },
        index,
      );
      const voucher = checkout.voucherCode
        ? await repo.findVoucherByCode(db, checkout.voucherCode)
        : null;
      // Credits and the voucher were taken when the checkout was processed; the card only if it
      // went through (a declined card leaves an outstanding balance, which the cancel clears).
      return {
        share: byCard ? share : { ...share, cardCents: 0, taxCents: 0 },
        chargeId: byCard ? chargeId : null,
        voucherId: voucher?.id ?? null,
        duplicates,
      };
    }
  }
  if (row.subscriptionId !== null) {
    const credits = await repo.creditsSpentOn(db, row.id);
    return {
      share: { ...emptyShare, credits, creditsCents: credits * CENTS_PER_CREDIT },
      chargeId: null,
      voucherId: null,
      duplicates,
    };
  }
  if (byCard)
    return {
      share: { ...emptyShare, cardCents: row.amountCents },
      chargeId: row.chargeId,
      voucherId: null,
      duplicates,
    };
  return { share: emptyShare, chargeId: null, voucherId: null, duplicates };
}

export type Plan = {
  row: repo.ReservationForRefund;
  policy: CancellationPolicy & { text: string };
  free: boolean;
  paid: Paid;
  split: RefundSplit;
  creditsWait: boolean;
  /** The duplicate charges' parts, inside `split.cardCents`, each never more than is left. */
  duplicates: CardPart[];
};

export async function plan(
  db: Queryable,
  row: repo.ReservationForRefund,
  choice: Choice,
  now: Date,
) {
  const policy = await policyFor(db, row.location, row.userId);
  const free = isFreeCancellation(row.time, policy, now);
  const paidInFull = await paidFor(db, row);
  // Moves to cheaper seats already gave part of it back.
  const paid = {
    ...paidInFull,
    share: shareLess(paidInFull.share, await repo.movedBack(db, row.id)),
  };
  const keep =
    choice === 'full'
      ? 0
      : choice === 'none'
        ? 100
        : choice === 'no_show' || !free
          ? policy.lateKeepPercent
          : 0;
  let split = refundOf(paid.share, keep);
  if (paid.charges.length > 0) {
    const left = await leftOnCharges(db, paid.charges);
    split = capCard(
      split,
      left.reduce((n, c) => n + c.leftCents, 0),
    );
  }
  const duplicates = await cardPartsEach(db, paid.duplicates);
  const duplicateCents = duplicates.reduce((n, d) => n + d.cents, 0);
  split = {
    ...split,
    cardCents: split.cardCents + duplicateCents,
    totalCents: split.totalCents + duplicateCents,
  };
  const creditsWait =
    split.credits > 0 &&
    !(row.userId !== null && (await isClubMemberInGoodStanding(db, row.userId)));
  return { row, policy, free, paid, split, creditsWait, duplicates } satisfies Plan;
}

/** What is left on each charge (charged less what earlier refunds of it took), in order. */
async function leftOnCharges(db: Queryable, chargeIds: number[]) {
  const left = [];
  for (const id of chargeIds) {
    const charge = await repo.findCharge(db, id);
    const leftCents = (charge?.amountCents ?? 0) - (await repo.cardRefundedFrom(db, id));
    left.push({ chargeId: id, leftCents: Math.max(0, leftCents) });
  }
  return left;
}

/** Each part back from its own charge, never more than is left on it. */
async function cardPartsEach(db: Queryable, wanted: CardPart[]): Promise<CardPart[]> {
  const parts: CardPart[] = [];
  for (const want of wanted) {
    const [{ leftCents }] = await leftOnCharges(db, [want.chargeId]);
    const cents = Math.min(want.cents, leftCents);
    if (cents > 0) parts.push({ chargeId: want.chargeId, cents });
  }
  return parts;
}

/** `cents` to the card, taken from the charges in order, never more than is left on each. */
async function cardParts(db: Queryable, chargeIds: number[], cents: number) {
  const parts: { chargeId: number; cents: number }[] = [];
  let rest = cents;
  for (const { chargeId, leftCents } of await leftOnCharges(db, chargeIds)) {
    const take = Math.min(rest, leftCents);
    if (take > 0) parts.push({ chargeId, cents: take });
    rest -= take;
  }
  return parts;
}

export async function breakdown(
  db: Queryable,
  p: Plan,
  voucherCode: string | null,
): Promise<RefundBreakdown> {
  const s = p.split;
  const lines: string[] = [];
  const charged = [...p.paid.charges, p.paid.chargeId].filter((id): id is number => id !== null);
  const desk = s.cardCents > 0 ? await repo.deskMethodOf(db, charged) : null;
  if (desk)
    lines.push(
      `${formatMoney(s.cardCents, p.row.location.currency)} given back at the desk (${PAYMENT_METHOD_LABELS[desk].toLowerCase()})`,
    );
  else if (s.cardCents > 0) {
    const card = p.row.userId !== null ? await repo.findCard(db, p.row.userId) : null;
    lines.push(
      card
        ? `${formatMoney(s.cardCents, p.row.location.currency)} back to your ${card.brand} ending ${card.last4}`
        : `${formatMoney(s.cardCents, p.row.location.currency)} back to the card you paid with`,
    );
  }
  if (s.credits > 0)
    lines.push(
      p.creditsWait
        ? `${s.credits} credits back to your credits balance once your membership is in good standing again`
        : `${s.credits} credits back to your credits balance`,
    );
  const hint = voucherCode ? voucherCode.slice(-4) : null;
  if (s.voucherCents > 0)
    lines.push(
      `${formatMoney(s.voucherCents, p.row.location.currency)} back to your voucher ending ${hint ?? '????'}`,
    );
  if (s.keptCents > 0)
    lines.push(
      `${formatMoney(s.keptCents, p.row.location.currency)} is kept under the cancellation policy`,
    );
  if (lines.length === 0) lines.push('Nothing was paid for this booking, so nothing comes back.');
  return {
    card_cents: s.cardCents,
    tax_cents: s.taxCents,
    fee_cents: s.feeCents,
    credits: s.credits,
    credits_cents: s.creditsCents,
    credits_wait: p.creditsWait,
    voucher_cents: s.voucherCents,
    voucher_hint: s.voucherCents > 0 ? hint : null,
    total_cents: s.totalCents,
    kept_cents: s.keptCents,
    lines,
  };
}

export async function voucherCodeOf(db: Queryable, row: repo.ReservationForRefund) {
  if (row.checkoutId === null) return null;
  return (await repo.findCheckout(db, row.checkoutId))?.voucherCode ?? null;
}

/** The caller's view of a live reservation, or 404 (someone else's does not exist for them). */
export async function visible(db: Queryable, caller: AuthUser, id: number, lock = false) {
  const row = await repo.findReservation(db, id, lock);
  if (!row || row.isBlackout) throw new NotFound();
  if (!isStaff(caller) && row.userId !== caller.id) throw new NotFound();
  return row;
}

function assertChoice(caller: AuthUser, choice: RefundChoice, reason: string) {
  if (choice !== 'policy' && !isStaff(caller)) throw new Forbidden();
  if (choice === 'none' && reason === '') throw ValidationError.field('reason', REASON_REQUIRED);
}

function assertCancellable(caller: AuthUser, row: repo.ReservationForRefund, now: Date) {
  if (row.cancelledAt) throw ValidationError.nonField(ALREADY_CANCELLED);
  if (!isStaff(caller) && row.time.getTime() <= now.getTime())
    throw ValidationError.nonField('Past reservations cannot be changed.');
}

/**
 * The quote's own line: the deadline while it is ahead; once passed, no date (a booking made
 * inside the window was never free, and a deadline before it was made reads wrong, issue 30).
 */
function forThisBooking(row: repo.ReservationForRefund, p: Plan): string {
  if (p.free)
    return `For this booking: free until ${describeDeadline(row.time, p.policy, row.location.timezone)}.`;
  return `For this booking: it starts within ${p.policy.windowHours} hours, so cancelling now is not free.`;
}

/** What cancelling now would give back, exactly as the cancel will do it. */
export async function quoteCancel(
  db: Db,
  caller: AuthUser,
  id: number,
  choice: RefundChoice = 'policy',
  now = new Date(),
): Promise<CancelQuote> {
  const row = await visible(db, caller, id);
  if (choice !== 'policy' && !isStaff(caller)) throw new Forbidden();
  assertCancellable(caller, row, now);
  const p = await plan(db, row, choice, now);
  return {
    reservation: row.id,
    choice,
    free_until: freeUntil(row.time, p.policy).toISOString(),
    free: p.free,
    policy_text: `${p.policy.text} ${forThisBooking(row, p)}`,
    paid_cents: shareValueCents(p.paid.share),
    refund: await breakdown(db, p, await voucherCodeOf(db, row)),
  };
}

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

/** One status for a refund sent in parts: failed if any failed, pending if any is still to go. */
function cardStatusOf(rows: repo.RefundRow[]): CardRefundStatus {
  const statuses = rows.map((r) => r.cardStatus);
  for (const s of ['failed', 'pending', 'succeeded'] as const) if (statuses.includes(s)) return s;
  return 'none';
}

/**
 * A booking whose checkout a crash left claimed is paid (or known unpaid) before its refund (or
 * its move) is worked out: its checkout ends here as the request path ends it (decision 0072), so a charge
 * made for it is refunded now, never taken later for a booking already cancelled.
 */
export async function settleCheckoutOf(ctx: RefundContext, caller: AuthUser, id: number) {
  const row = await visible(ctx.db, caller, id);
  if (row.checkoutId !== null && !row.cancelledAt) await settleCheckout(ctx, row.checkoutId);
}

/** Cancels a booking with its refund (customers: their own, before it starts, per the policy). */
export async function cancelReservation(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  body: { refund: RefundChoice; reason: string },
  now = new Date(),
): Promise<CancelResponse> {
  assertChoice(caller, body.refund, body.reason);
  await settleCheckoutOf(ctx, caller, id);
  const refund = await ctx.db.transaction(async (tx) => {
    const row = await visible(tx, caller, id, true);
    assertCancellable(caller, row, now);
    return refundInTransaction(
      tx,
      caller,
      row,
      { choice: body.refund, reason: body.reason, cancel: true },
      now,
    );
  });
  const final = await finish(ctx, refund);
  const row = await repo.findReservation(ctx.db, id);
  if (row) await seatFreed(ctx, row.calendarId, row.slot);
  return {
    detail: CANCELLED_MESSAGE,
    refund: final ? await refundView(ctx.db, final) : null,
  };
}

/** Staff: the driver did not come. A no-show is a late cancellation that keeps the seat's row. */
export async function markNoShow(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  now = new Date(),
) {
  await settleCheckoutOf(ctx, caller, id);
  const refund = await ctx.db.transaction(async (tx) => {
    const row = await visible(tx, caller, id, true);
    if (row.cancelledAt) throw ValidationError.nonField(ALREADY_CANCELLED);
    if (await repo.findRefundOfReservation(tx, row.id))
      throw ValidationError.nonField('This reservation has already been refunded.');
    return refundInTransaction(
      tx,
      caller,
      row,
      { choice: 'no_show', reason: 'No-show', cancel: false },
      now,
    );
  });
  const final = await finish(ctx, refund);
  return {
    detail: 'Marked as no-show.',
    refund: final ? await refundView(ctx.db, final) : null,
  };
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

/** A refund with its further card parts added in: what went back altogether, one status. */
async function withParts(db: Queryable, refund: repo.RefundRow) {
  const rows = [refund, ...(await repo.refundParts(db, refund.id))];
  const sum = (f: (r: repo.RefundRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    ...refund,
    cardCents: sum((r) => r.cardCents),
    taxCents: sum((r) => r.taxCents),
    cardStatus: cardStatusOf(rows),
    lastError: rows.find((r) => r.lastError)?.lastError ?? '',
  };
}

export async function refundView(db: Queryable, one: repo.RefundRow): Promise<RefundView> {
  const refund = await withParts(db, one);
  const row = await repo.findReservation(db, refund.reservationId);
  const p: Plan = {
    row: row!,
    policy: { windowHours: 0, lateKeepPercent: 0, text: '' },
    free: true,
    paid: {
      share: emptyShare,
      chargeId: refund.chargeId,
      voucherId: refund.voucherId,
      charges: [],
      duplicates: [],
    },
    split: {
      cardCents: refund.cardCents,
      taxCents: refund.taxCents,
      feeCents: refund.feeCents,
      credits: refund.credits,
      creditsCents: refund.creditsCents,
      voucherCents: refund.voucherCents,
      totalCents: refund.cardCents + refund.creditsCents + refund.voucherCents,
      keptCents: refund.keptCents,
    },
    creditsWait: refund.creditsStatus === 'waiting',
    duplicates: [],
  };
  return {
    id: refund.id,
    reservation: refund.reservationId,
    choice: refund.choice,
    reason: refund.reason,
    card_status: refund.cardStatus,
    last_error: refund.lastError,
    refund: await breakdown(db, p, row ? await voucherCodeOf(db, row) : null),
    created: refund.createdAt.toISOString(),
  };
}

/** The refund receipt (HTML and text) through the mailer (the outbox without SMTP). */
async function sendReceipt(ctx: RefundContext, refund: repo.RefundRow) {
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

/**
 * Credits that waited for good standing go to the balance once the membership is in good
 * standing again (the club calls this after a successful renewal). Inside the caller's transaction.
 */
export async function releaseWaitingCredits(tx: Queryable, userId: number): Promise<number> {
  if (!(await isClubMemberInGoodStanding(tx, userId))) return 0;
  let released = 0;
  for (const refund of await repo.waitingCredits(tx, userId)) {
    await addCredits(tx, {
      userId,
      credits: refund.credits,
      reason: 'refund',
      reservationId: refund.reservationId,
      checkoutId: refund.checkoutId,
    });
    await repo.updateRefund(tx, refund.id, { creditsStatus: 'returned' });
    released += refund.credits;
  }
  return released;
}

/** The after-commit half for refunds recorded inside someone else's transaction (the planner). */
export async function finishRefunds(ctx: RefundContext, list: (repo.RefundRow | null)[]) {
  const done = [];
  for (const refund of list) done.push(await finish(ctx, refund));
  return done;
}

export { findReservation as findReservationForRefund } from './refunds.repo';

/**
 * The member leaves while credits wait: their value (10 cents a credit) goes back to the card
 * instead, against the member's latest club charge (what bought the credits), never more than is
 * left on it. Inside the cancelling transaction; returns the refunds to send after the commit.
 */
export async function waitingCreditsToCard(tx: Queryable, userId: number): Promise<number[]> {
  const waiting = await repo.waitingCredits(tx, userId);
  if (waiting.length === 0) return [];
  const charge = await repo.latestClubCharge(tx, userId);
  const ids: number[] = [];
  let left = charge ? charge.amountCents - (await repo.cardRefundedFrom(tx, charge.id)) : 0;
  for (const refund of waiting) {
    const cents = Math.max(0, Math.min(refund.creditsCents, left));
    left -= cents;
    await repo.updateRefund(tx, refund.id, {
      creditsStatus: 'to_card',
      ...(cents > 0 && charge
        ? { cardCents: refund.cardCents + cents, chargeId: charge.id, cardStatus: 'pending' }
        : {}),
    });
    if (cents > 0) ids.push(refund.id);
  }
  return ids;
}
