import { formatMoney } from '@paddock/contract/money';
import type { SlotPricing } from '../reservations/reservations.service';
import {
  chargeSavedCard,
  type ChargeRecord,
  type Queryable,
} from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import * as repo from './refunds.repo';

/**
 * The price difference of a move to a dearer seat, charged to the customer's saved card
 * (docs/decisions/0040-move-to-a-dearer-seat.md).
 */

/** What the card is charged: the difference, and the tax and fee inside it. */
export type DearerDifference = { cardCents: number; taxCents: number; feeCents: number };

/** The new seat's price less the old one's, with the tax and the fee parts of it (never negative). */
export function dearerDifference(from: SlotPricing, to: SlotPricing): DearerDifference | null {
  const cardCents = to.totalCents - from.totalCents;
  if (cardCents <= 0) return null;
  const taxCents = Math.min(Math.max(0, to.taxCents - from.taxCents), cardCents);
  const feeCents = Math.min(Math.max(0, to.feeCents - from.feeCents), cardCents - taxCents);
  return { cardCents, taxCents, feeCents };
}

/** "You pay $10.89 more, charged to your Visa ending 4242." */
export async function dearerLine(
  db: Queryable,
  userId: number | null,
  difference: DearerDifference,
  currency: string,
) {
  const card = userId !== null ? await repo.findCard(db, userId) : null;
  const amount = formatMoney(difference.cardCents, currency);
  return card
    ? `You pay ${amount} more, charged to your ${card.brand} ending ${card.last4}.`
    : `You pay ${amount} more, charged to your saved card: add one on your account page first.`;
}

/** A declined card: the move is undone; the attempt is kept as a line in the transactions. */
export class CardDeclined extends Error {
  constructor(readonly charge: ChargeRecord) {
    super(charge.errors);
  }
}

/**
 * Charges the difference once per attempt, inside the move's savepoint with the reservation row
 * locked: the key is `move-{reservation}-{n}`, `n` the attempts made so far (declines included,
 * they are kept), so a repeat after a crash gets the provider's first answer and a new attempt
 * after a decline is a new key. Declined: throws `CardDeclined` (the caller rolls the move back).
 */
export async function chargeDifference(
  tx: Queryable,
  payments: PaymentProvider,
  input: {
    reservationId: number;
    userId: number;
    difference: DearerDifference;
    currency: string;
    notes: string;
    from: { calendarId: number; slot: string };
  },
): Promise<ChargeRecord> {
  const attempt = await repo.moveChargeAttempts(tx, input.reservationId);
  const result = await chargeSavedCard(tx, payments, {
    userId: input.userId,
    amountCents: input.difference.cardCents,
    currency: input.currency,
    notes: input.notes,
    idempotencyKey: `move-${input.reservationId}-${attempt}`,
    kind: 'booking',
  });
  if (!result.ok) throw new CardDeclined(result.charge);
  await repo.insertMoveCharge(tx, {
    reservationId: input.reservationId,
    chargeId: result.charge.id,
    ...input.difference,
    fromCalendarId: input.from.calendarId,
    fromSlot: input.from.slot,
  });
  return result.charge;
}

/** Keeps a declined attempt as a transaction line once the move is rolled back. */
export async function keepDeclined(tx: Queryable, declined: CardDeclined) {
  const { id: _id, createdAt: _createdAt, ...line } = declined.charge;
  await repo.recordTransaction(tx, line);
}
