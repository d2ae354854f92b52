// What a booking was paid with and what a cancellation gives back from where: the policy's
// share, the card part per charge (never more than is left on it), credits, the voucher
// (docs/decisions/0027, 0040, 0072).
import type { RefundChoice } from '@paddock/contract/refunds';
import { CENTS_PER_CREDIT } from '@paddock/contract/club';
import { isFreeCancellation, type CancellationPolicy } from '../../lib/cancellation-policy';
import {
  capCard,
  emptyShare,
  refundOf,
  shareLess,
  shareOfCheckout,
  type PaidShare,
  type RefundSplit,
} from '../../lib/refund-split';
import { isClubMemberInGoodStanding } from '../../plugins/club-membership';
import type { Queryable } from '../../plugins/payments/charge-card';
import * as repo from './refunds.repo';
import { policyFor } from './refund-policy';

/** Choices only staff may make; a customer's cancel always follows the policy. */
export type Choice = RefundChoice | 'no_show';

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
export async function cardParts(db: Queryable, chargeIds: number[], cents: number) {
  const parts: { chargeId: number; cents: number }[] = [];
  let rest = cents;
  for (const { chargeId, leftCents } of await leftOnCharges(db, chargeIds)) {
    const take = Math.min(rest, leftCents);
    if (take > 0) parts.push({ chargeId, cents: take });
    rest -= take;
  }
  return parts;
}
