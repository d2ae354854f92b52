import { useState, type FormEvent } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import Form from 'react-bootstrap/Form';
import { showAlert } from '../../lib/alerts';
import { plainErrorMessage } from '../../lib/error-message';
import type { CardEntryProps } from './card-entry';
import { CardFormActions } from './card-form-actions';
import { registerStripe } from './challenge';

// Loaded once per key: Stripe.js must not be injected twice.
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(key: string) {
  if (!stripes.has(key)) stripes.set(key, loadStripe(key));
  // The bank's challenge (3-D Secure) runs on this same instance.
  registerStripe(() => stripes.get(key)!);
  return stripes.get(key)!;
}

function StripeCardFields({ submitLabel, onToken, onCancel }: CardEntryProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || busy) return;
    setBusy(true);
    try {
      const result = await stripe.createToken(card);
      if (result.error)
        showAlert(result.error.message ?? 'Your card could not be saved.', 'danger');
      else {
        await onToken(result.token.id);
        card.clear();
      }
    } catch (error) {
      showAlert(plainErrorMessage(error), 'danger');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form noValidate onSubmit={submit} aria-label="Card details">
      <Form.Group className="mb-3">
        <Form.Label as="div" id="stripe-card-label">
          Card
        </Form.Label>
        <div className="form-control py-2" aria-labelledby="stripe-card-label">
          <CardElement options={{ hidePostalCode: false }} />
        </div>
      </Form.Group>
      <CardFormActions submitLabel={submitLabel} onCancel={onCancel} busy={busy} ready={!!stripe} />
    </Form>
  );
}

/** Stripe Elements; its own chunk, loaded only when the venue's provider is Stripe. */
export default function StripeCardForm(props: CardEntryProps & { publishableKey: string }) {
  const { publishableKey, ...entry } = props;
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <StripeCardFields {...entry} />
    </Elements>
  );
}
