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
  | {
      ok: false;
      message: string;
      chargeRef: string | null;
      /**
       * The bank asks for 3-D Secure. On-session: the challenge the web runs, after which the
       * same key answers how it ended. Off-session: absent, with `code: authentication_required`
       * (the customer authenticates that payment later, on-session, by `chargeRef`).
       */
      action?: NextAction;
      code?: typeof AUTHENTICATION_REQUIRED;
    };

/** Stripe's decline code for an off-session charge the bank wants authenticated. */
export const AUTHENTICATION_REQUIRED = 'authentication_required';
/**
 * What the customer reads when a charge made without them needs their authentication (a club
 * renewal's mail links to where they do it; decision 0085).
 */
export const AUTHENTICATION_REQUIRED_MESSAGE =
  'Your bank asks you to authenticate this payment, which cannot be done without you. Please review your payment method.';
/** A challenge not answered yet (the customer left the page, or the bank's window is open). */
export const AUTHENTICATION_PENDING_MESSAGE =
  'Your bank asks you to authenticate this payment. Please complete the authentication.';
/**
 * A challenge nobody answered within the hold (the payment is cancelled). One text for every
 * payment that asks (a checkout, a voucher, joining the club, a balance, a cancellation's
 * charge-back): the provider does not know which, so it names none.
 */
export const AUTHENTICATION_EXPIRED_MESSAGE =
  'The authentication your bank asked for was not completed in time. Nothing was charged; please try again.';
/**
 * How long an on-session charge waits for its 3-D Secure challenge: a checkout's seats go back
 * (0085), and any other challenge is cancelled at the provider (0100).
 */
export const AUTHENTICATION_HOLD_MS = 15 * 60 * 1000;
/** Stripe's message for a failed or abandoned 3-D Secure challenge. */
export const AUTHENTICATION_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/**
 * What the web needs to run a 3-D Secure challenge: Stripe.js `handleNextAction` takes the
 * client secret; the local provider's own page is at `challengeUrl`.
 */
export type NextAction = {
  /** The PaymentIntent or SetupIntent (`pi_…`, `seti_…`; the local provider's `ch_…`). */
  intentRef: string;
  clientSecret: string | null;
  challengeUrl: string | null;
};

/** A card being saved for off-session charges: saved now, or after the customer's challenge. */
export type SetupResult =
  { status: 'succeeded'; card: AttachedCard } | { status: 'requires_action'; action: NextAction };

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
  /**
   * The customer is on the page (checkout, voucher, enrolment): a bank asking for 3-D Secure
   * answers `action`, and the challenge returns the customer to `returnUrl`. Absent: off-session.
   */
  onSession?: { returnUrl: string };
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
/** A card the web tokenized, for a (new or existing) customer. */
export type AttachCardInput = {
  token: string;
  email: string;
  name: string;
  customerRef: string | null;
};
/** `reference` names whose card it is; `returnUrl` is where the bank's challenge comes back. */
export type SetupCardInput = AttachCardInput & { reference: string; returnUrl: string };

export interface PaymentProvider {
  readonly kind: 'local' | 'stripe';
  readonly publishableKey: string | null;
  /** Turns a client-side token into a saved payment method on a (new or existing) customer. */
  attachCard(input: AttachCardInput): Promise<AttachedCard>;
  /**
   * Saves a card for later off-session charges through a SetupIntent (`usage: off_session`):
   * the card exists only once the setup succeeded, after a challenge when the bank asks for one
   * (then `finishSetup`). `reference` names whose card it is; `finishSetup` answers it back.
   */
  setupCard(input: SetupCardInput): Promise<SetupResult>;
  /** The card of a setup whose challenge is over; CardError when it failed or still waits. */
  finishSetup(setupRef: string): Promise<{ reference: string; card: AttachedCard }>;
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
  /**
   * Cancels a charge still waiting for its challenge (an abandoned checkout), so a late answer
   * can no longer take the money. A charge that ended meanwhile stays as it ended.
   */
  cancelAuthentication(intentRef: string): Promise<void>;
  /**
   * The customer, now on the page, authenticates an off-session charge that answered
   * `authentication_required` (Stripe: the PaymentIntent confirmed again on-session): the
   * challenge (`action`) while it waits, then how it ended.
   */
  authenticateLater(intentRef: string, returnUrl: string): Promise<ChargeResult>;
  /** Where staff view the customer at the provider ("View Customer"). */
  customerUrl(customerRef: string): string | null;
}
