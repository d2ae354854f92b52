// A refund as the customer and staff read it: its lines in words and its totals.
import { type RefundBreakdown, type RefundView } from '@paddock/contract/refunds';
import { formatMoney } from '@paddock/contract/money';
import { PAYMENT_METHOD_LABELS } from '@paddock/contract/charges';
import { emptyShare } from '../../lib/refund-split';
import type { CardRefundStatus } from '../../db/schema/refunds';
import type { Queryable } from '../../plugins/payments/charge-card';
import * as repo from './refunds.repo';
import type { Plan } from './refund-plan';

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

/** One status for a refund sent in parts: failed if any failed, pending if any is still to go. */
function cardStatusOf(rows: repo.RefundRow[]): CardRefundStatus {
  const statuses = rows.map((r) => r.cardStatus);
  for (const s of ['failed', 'pending', 'succeeded'] as const) if (statuses.includes(s)) return s;
  return 'none';
}

/** A refund with its further card parts added in: what went back altogether, one status. */
export async function withParts(db: Queryable, refund: repo.RefundRow) {
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
