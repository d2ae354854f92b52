import type Stripe from 'stripe';
import type { Config } from '../../config';
import {
  assertChargeable,
  type AttachedCard,
  AUTHENTICATION_EXPIRED_MESSAGE,
  AUTHENTICATION_FAILED_MESSAGE,
  AUTHENTICATION_PENDING_MESSAGE,
  AUTHENTICATION_REQUIRED,
  AUTHENTICATION_REQUIRED_MESSAGE,
  type SetupResult,
  type AttachCardInput,
  type SetupCardInput,
  CardError,
  type ChargeInput,
  type ChargeResult,
  type PaymentProvider,
  type RefundResult,
} from './provider';

/** Stripe's brand codes → the names shown on the card panel (the local provider's names). */
const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The metadata field naming our idempotency key on PaymentIntents and Refunds (decision 0084). */
export const PADDOCK_KEY = 'paddock_key';
/** The metadata field naming whose card a SetupIntent saves (`user-12`). */
export const PADDOCK_REFERENCE = 'paddock_reference';

/**
 * A PaymentIntent as a charge result. `requires_action` on-session is the challenge the web runs
 * (`stripe.handleNextAction` with the client secret); off-session the bank's wish to
 * authenticate is `authentication_required`; anything else but `succeeded` is a refusal.
 */
function intentResult(intent: Stripe.PaymentIntent, onSession = false): ChargeResult {
  if (intent.status === 'requires_action' && onSession)
    return {
      ok: false,
      message: AUTHENTICATION_PENDING_MESSAGE,
      chargeRef: intent.id,
      action: { intentRef: intent.id, clientSecret: intent.client_secret, challengeUrl: null },
    };
  const code = intent.last_payment_error?.code ?? intent.last_payment_error?.decline_code;
  if (intent.status === 'requires_action' || code === AUTHENTICATION_REQUIRED)
    return {
      ok: false,
      message: AUTHENTICATION_REQUIRED_MESSAGE,
      chargeRef: intent.id,
      code: AUTHENTICATION_REQUIRED,
    };
  if (intent.status === 'canceled')
    return { ok: false, message: AUTHENTICATION_EXPIRED_MESSAGE, chargeRef: intent.id };
  if (intent.status !== 'succeeded')
    return {
      ok: false,
      message:
        intent.last_payment_error?.message ??
        'Your card could not be charged. Please try another card.',
      chargeRef: intent.id,
    };
  const charge = intent.latest_charge;
  const receiptUrl = charge && typeof charge === 'object' ? charge.receipt_url : null;
  return { ok: true, chargeRef: intent.id, receiptUrl };
}

/** Stripe's SDK, loaded by createPaymentProvider only when Stripe is configured (0049). */
export type StripeSdk = typeof Stripe;

/** Errors about the card or the request the customer can fix by entering another card. */
function isCustomerFixable(
  sdk: StripeSdk,
  error: unknown,
): error is InstanceType<typeof Stripe.errors.StripeError> {
  return (
    error instanceof sdk.errors.StripeCardError ||
    error instanceof sdk.errors.StripeInvalidRequestError
  );
}

/**
 * Cards and charges through Stripe's official SDK: the web collects the card with Stripe
 * Elements and sends a token (`tok_…`) or a PaymentMethod (`pm_…`); the number never reaches us.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;

  constructor(
    options: NonNullable<Config['stripe']>,
    private readonly sdk: StripeSdk,
  ) {
    this.publishableKey = options.publishableKey;
    this.stripe = new sdk(options.secretKey, {
      // host/port/protocol point the SDK at a stand-in (tests); unset means api.stripe.com.
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      telemetry: false,
      appInfo: { name: 'Paddock' },
    });
  }

  async attachCard(input: AttachCardInput): Promise<AttachedCard> {
    try {
      const customerRef =
        input.customerRef ??
        (await this.stripe.customers.create({ email: input.email || undefined, name: input.name }))
          .id;
      const created = input.token.startsWith('pm_')
        ? input.token
        : (await this.stripe.paymentMethods.create({ type: 'card', card: { token: input.token } }))
            .id;
      const method = await this.stripe.paymentMethods.attach(created, { customer: customerRef });
      await this.stripe.customers.update(customerRef, {
        invoice_settings: { default_payment_method: method.id },
      });
      const card = method.card;
      if (!card) throw new CardError('Only cards can be saved.');
      return {
        customerRef,
        paymentMethodRef: method.id,
        brand: BRAND_NAMES[card.brand] ?? 'Unknown',
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        postalCode: method.billing_details?.address?.postal_code ?? null,
      };
    } catch (error) {
      if (isCustomerFixable(this.sdk, error)) throw new CardError(error.message);
      throw error;
    }
  }

  /**
   * A SetupIntent with `usage: off_session`, confirmed here with the card the web tokenized
   * (finalizing on the server); `requires_action` hands its client secret to the web, whose
   * `stripe.handleNextAction` shows the bank's challenge, then `finishSetup` reads how it ended.
   */
  async setupCard(input: SetupCardInput): Promise<SetupResult> {
    try {
      const customerRef =
        input.customerRef ??
        (await this.stripe.customers.create({ email: input.email || undefined, name: input.name }))
          .id;
      const method = input.token.startsWith('pm_')
        ? input.token
        : (await this.stripe.paymentMethods.create({ type: 'card', card: { token: input.token } }))
            .id;
      const setup = await this.stripe.setupIntents.create({
        customer: customerRef,
        payment_method: method,
        usage: 'off_session',
        confirm: true,
        return_url: input.returnUrl,
        metadata: { [PADDOCK_REFERENCE]: input.reference },
        expand: ['payment_method'],
      });
      if (setup.status === 'requires_action')
        return {
          status: 'requires_action',
          action: { intentRef: setup.id, clientSecret: setup.client_secret, challengeUrl: null },
        };
      return { status: 'succeeded', card: await this.cardOfSetup(setup) };
    } catch (error) {
      if (isCustomerFixable(this.sdk, error)) throw new CardError(error.message);
      throw error;
    }
  }

  async finishSetup(setupRef: string): Promise<{ reference: string; card: AttachedCard }> {
    let setup: Stripe.SetupIntent;
    try {
      setup = await this.stripe.setupIntents.retrieve(setupRef, { expand: ['payment_method'] });
    } catch (error) {
      if (isCustomerFixable(this.sdk, error)) throw new CardError(error.message);
      throw error;
    }
    if (setup.status === 'requires_action') throw new CardError(AUTHENTICATION_PENDING_MESSAGE);
    if (setup.status !== 'succeeded')
      throw new CardError(setup.last_setup_error?.message ?? AUTHENTICATION_FAILED_MESSAGE);
    return {
      reference: setup.metadata?.[PADDOCK_REFERENCE] ?? '',
      card: await this.cardOfSetup(setup),
    };
  }

  /** The succeeded setup's card, made the customer's default for invoices and the dashboard. */
  private async cardOfSetup(setup: Stripe.SetupIntent): Promise<AttachedCard> {
    const method = setup.payment_method;
    const customerRef = typeof setup.customer === 'string' ? setup.customer : setup.customer?.id;
    if (!method || typeof method === 'string' || !customerRef || !method.card)
      throw new CardError('Only cards can be saved.');
    await this.stripe.customers.update(customerRef, {
      invoice_settings: { default_payment_method: method.id },
    });
    return {
      customerRef,
      paymentMethodRef: method.id,
      brand: BRAND_NAMES[method.card.brand] ?? 'Unknown',
      last4: method.card.last4,
      expMonth: method.card.exp_month,
      expYear: method.card.exp_year,
      postalCode: method.billing_details?.address?.postal_code ?? null,
    };
  }

  async detachCard(card: { customerRef: string; paymentMethodRef: string }): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(card.paymentMethodRef);
    } catch (error) {
      // Already detached or deleted in the dashboard: nothing left to undo.
      if (error instanceof this.sdk.errors.StripeInvalidRequestError) return;
      throw error;
    }
  }

  /**
   * Off-session (`off_session: true`) unless the customer is on the page: then confirmed
   * on-session with a `return_url`, and a bank asking for 3-D Secure answers the challenge.
   * A key seen before answers the intent as it is now (its first answer may be a challenge
   * since passed or failed), not Stripe's replay of that first answer.
   */
  async charge(input: ChargeInput): Promise<ChargeResult> {
    assertChargeable(input.amountCents);
    const onSession = input.onSession !== undefined;
    try {
      let intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency.toLowerCase(),
          customer: input.customerRef,
          payment_method: input.paymentMethodRef,
          ...(input.onSession ? { return_url: input.onSession.returnUrl } : { off_session: true }),
          confirm: true,
          description: input.description,
          // What findEarlierCharge and the webhook match on once the idempotency key has expired.
          metadata: { [PADDOCK_KEY]: input.idempotencyKey },
          expand: ['latest_charge'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (intent.status === 'requires_action' || intent.status === 'processing')
        intent = await this.stripe.paymentIntents.retrieve(intent.id, {
          expand: ['latest_charge'],
        });
      return intentResult(intent, onSession);
    } catch (error) {
      if (!isCustomerFixable(this.sdk, error)) throw error;
      const intentRef = error.payment_intent?.id ?? null;
      // An off-session charge the bank wants authenticated: the customer does it later.
      if (error.code === AUTHENTICATION_REQUIRED || error.decline_code === AUTHENTICATION_REQUIRED)
        return {
          ok: false,
          message: AUTHENTICATION_REQUIRED_MESSAGE,
          chargeRef: intentRef,
          code: AUTHENTICATION_REQUIRED,
        };
      return { ok: false, message: error.message, chargeRef: intentRef };
    }
  }

  /**
   * The customer's PaymentIntents created since `since` (a minute's slack for clocks), newest
   * first, matched by the key `charge` put in their metadata. A list, not the search API: search
   * lags up to a minute behind a charge, which is exactly the window a crash leaves.
   */
  async findEarlierCharge(input: ChargeInput, since: Date): Promise<ChargeResult | null> {
    const intents = this.stripe.paymentIntents.list({
      customer: input.customerRef,
      created: { gte: Math.floor(since.getTime() / 1000) - 60 },
      limit: 100,
      expand: ['data.latest_charge'],
    });
    for await (const intent of intents)
      if (intent.metadata?.[PADDOCK_KEY] === input.idempotencyKey)
        return intentResult(intent, input.onSession !== undefined);
    return null;
  }

  /** Every refund of a PaymentIntent, however it was made (ours, or in the dashboard). */
  async refundsOf(paymentIntentRef: string): Promise<Stripe.Refund[]> {
    const refunds: Stripe.Refund[] = [];
    for await (const refund of this.stripe.refunds.list({
      payment_intent: paymentIntentRef,
      limit: 100,
    }))
      refunds.push(refund);
    return refunds;
  }

  /**
   * The event a webhook request carries, verified with the endpoint's signing secret: a wrong
   * or missing signature, or one older than the SDK's tolerance (5 minutes), throws
   * `StripeSignatureVerificationError`.
   */
  verifyWebhook(payload: Buffer, signature: string | undefined, secret: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(payload, signature ?? '', secret);
  }

  /** `chargeRef` is the PaymentIntent the charge made (`pi_…`). */
  async refund(chargeRef: string, amountCents: number, key: string): Promise<RefundResult> {
    assertChargeable(amountCents);
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: chargeRef,
          amount: amountCents,
          reason: 'requested_by_customer',
          // The webhook leaves refunds carrying it to the path that made them (decision 0084).
          metadata: { [PADDOCK_KEY]: key },
        },
        { idempotencyKey: key },
      );
      if (refund.status === 'failed' || refund.status === 'canceled')
        return {
          ok: false,
          message: `The refund could not be completed (${refund.failure_reason ?? 'unknown'}).`,
          refundRef: refund.id,
        };
      // `pending` and `requires_action` settle later at Stripe; the refund is issued.
      return { ok: true, refundRef: refund.id };
    } catch (error) {
      if (isCustomerFixable(this.sdk, error))
        return { ok: false, message: error.message, refundRef: null };
      throw error;
    }
  }

  async authenticateLater(intentRef: string, returnUrl: string): Promise<ChargeResult> {
    try {
      let intent = await this.stripe.paymentIntents.retrieve(intentRef, {
        expand: ['latest_charge'],
      });
      const code = intent.last_payment_error?.code ?? intent.last_payment_error?.decline_code;
      if (intent.status === 'requires_payment_method' && code === AUTHENTICATION_REQUIRED)
        intent = await this.stripe.paymentIntents.confirm(intentRef, {
          return_url: returnUrl,
          expand: ['latest_charge'],
        });
      return intentResult(intent, true);
    } catch (error) {
      if (!isCustomerFixable(this.sdk, error)) throw error;
      return { ok: false, message: error.message, chargeRef: intentRef };
    }
  }

  async cancelAuthentication(intentRef: string): Promise<void> {
    try {
      await this.stripe.paymentIntents.cancel(intentRef, {
        cancellation_reason: 'abandoned',
      });
    } catch (error) {
      // Succeeded or failed meanwhile: Stripe refuses to cancel it, and it stays as it ended.
      if (error instanceof this.sdk.errors.StripeInvalidRequestError) return;
      throw error;
    }
  }

  customerUrl(customerRef: string): string {
    return `https://dashboard.stripe.com/customers/${customerRef}`;
  }
}
