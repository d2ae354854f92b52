import type { charges } from '../../db/schema/payments';
/** What a saved card looks like once the provider has it: references and display details only. */
export type AttachedCard = {
  customerRef: string;
  paymentMethodRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  postalCode: string | null;
};

/**
 * A charge the provider answered. A refusal (declined card, amount too small) is a result, not
 * an exception; an exception means the provider could not be reached or misbehaved.
 */
export type ChargeResult =
  | { ok: true; chargeRef: string; receiptUrl: string | null }
  | { ok: false; message: string; chargeRef: string | null };

/** The Charge row to record for a charge (`charges`), besides what the provider answers. */
export type ChargeToRecord = {
  userId: number;
  notes: string;
  kind: string;
  /** Ours (`checkout-12`), unique among the Charge rows; the provider's is ChargeInput's. */
  idempotencyKey: string;
};

/** A recorded Charge (`charges`). */
export type ChargeRow = typeof charges.$inferSelect;

export type ChargeInput = {
  customerRef: string;
  paymentMethodRef: string;
  amountCents: number;
  /** ISO 4217 code, upper case; `amountCents` is in its minor units. */
  currency: string;
  description: string;
  idempotencyKey: string;
};

/**
 * A refund the provider answered: sent (Stripe may still settle it later), or refused with a
 * message (more than is left on the charge, a closed card account…). An exception means the
 * provider could not be reached: nothing is known, retry with the same key.
 */
export type RefundResult =
  { ok: true; refundRef: string } | { ok: false; message: string; refundRef: string | null };

/** Both providers refuse anything but a positive whole number of cents before calling out. */
export function assertChargeable(amountCents: number) {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw new RangeError(`Not a chargeable amount: ${amountCents}`);
}

/** A card the provider refused (bad token, declined at attach): its message goes to the user. */
export class CardError extends Error {}

/**
 * The payment provider behind cards and charges. `local` keeps everything in our database
 * (test card numbers); `stripe` calls Stripe through its official SDK.
 */
export interface PaymentProvider {
  readonly kind: 'local' | 'stripe';
  readonly publishableKey: string | null;
  /** Turns a client-side token into a saved payment method on a (new or existing) customer. */
  attachCard(input: {
    token: string;
    email: string;
    name: string;
    customerRef: string | null;
  }): Promise<AttachedCard>;
  detachCard(card: { customerRef: string; paymentMethodRef: string }): Promise<void>;
  /**
   * Charges the saved card in `currency`. The same idempotency key never charges twice: a
   * repeat answers the first result, even when the two calls race.
   */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * Charges the saved card and records the attempt as a Charge row (`charges`) in ONE statement
   * on `db` (decision 0062), for a provider whose records live in our database. Answers the
   * recorded Charge, or null when it cannot do it that way (`db` is a caller's transaction, in
   * which a provider's charge must not roll back; or a concurrent call with the same key got
   * there first): the caller then charges and records as usual, with the same keys.
   */
  chargeAndRecord?(
    db: unknown,
    input: ChargeInput,
    record: ChargeToRecord,
    /**
     * Commit without waiting for the WAL flush: only for a caller whose next statement commits
     * in the same database and waits for it (which flushes this one too) before anyone outside
     * it learns of the charge (decision 0062).
     */
    opts?: { flushLater?: boolean },
  ): Promise<ChargeRow | null>;
  /**
   * Gives `amountCents` of a charge back to the card it was paid with. The same idempotency key
   * never refunds twice; a refund never exceeds what is left on the charge.
   */
  refund(chargeRef: string, amountCents: number, idempotencyKey: string): Promise<RefundResult>;
  /**
   * The charge the provider already made under `input.idempotencyKey` since `since`, or null:
   * asked before charging again a charge whose first answer was lost (the money repair), since a
   * provider may honour the key for a limited time only (Stripe: 24 hours; decision 0084). A
   * provider whose keys never expire has no need of it.
   */
  findEarlierCharge?(input: ChargeInput, since: Date): Promise<ChargeResult | null>;
  /** Where staff view the customer at the provider ("View Customer"). */
  customerUrl(customerRef: string): string | null;
}
