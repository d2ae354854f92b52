import type { AuthenticationAction } from '@paddock/contract/cards';
import type { Stripe } from '@stripe/stripe-js';

/**
 * Stripe.js as the card form loaded it (stripe-card-form.tsx registers it): the challenge needs
 * the same instance, and Stripe.js must not be loaded twice.
 */
let stripeLoader: (() => Promise<Stripe | null>) | null = null;
export function registerStripe(load: () => Promise<Stripe | null>) {
  stripeLoader = load;
}

/**
 * Runs the 3-D Secure challenge the bank asks for (decision 0085). Stripe: `handleNextAction`
 * shows it over the page and resolves when it is over (the server then reads how it ended). The
 * local provider: the browser goes to its challenge page, which comes back to the page the
 * server named (the promise never resolves: the page is left).
 */
export async function runChallenge(action: AuthenticationAction): Promise<void> {
  if (action.challenge_url) {
    window.location.assign(action.challenge_url);
    return new Promise<void>(() => {});
  }
  const stripe = action.client_secret && stripeLoader ? await stripeLoader() : null;
  if (!stripe || !action.client_secret)
    throw new Error(
      'Your bank asks for authentication, which this page cannot show. Please reload it.',
    );
  const result = await stripe.handleNextAction({ clientSecret: action.client_secret });
  // A failed challenge is the server's to tell: it reads the intent and answers one message.
  if (result.error && !result.error.payment_intent && !result.error.setup_intent)
    throw new Error(result.error.message ?? 'The authentication could not be completed.');
}
