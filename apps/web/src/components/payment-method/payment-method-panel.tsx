import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import type { SavedCard } from '@paddock/contract/cards';
import { showAlert } from '../../lib/alerts';
import { errorMessage } from '../../lib/error-message';
import { useVenueConfig } from '../../lib/venue-config';
import { SpinnerScreen } from '../spinner-screen';
import { TermsLink } from '../terms-modals';
import { cardQuery, saveCard } from './card-api';
import type { CardEntryProps } from './card-entry';
import { LocalCardForm } from './local-card-form';

const StripeCardForm = lazy(() => import('./stripe-card-form'));

export const CARD_SAVED = 'Your payment method has been saved.';

/** The venue's card entry: the built-in form, or Stripe Elements when Stripe is configured. */
export function CardEntry(props: CardEntryProps) {
  const config = useVenueConfig();
  if (config.payment_provider === 'stripe' && config.stripe_publishable_key) {
    return (
      <Suspense fallback={<Spinner animation="border" size="sm" role="status" />}>
        <StripeCardForm {...props} publishableKey={config.stripe_publishable_key} />
      </Suspense>
    );
  }
  return <LocalCardForm {...props} />;
}

function SavedCardDetails({ card }: { card: SavedCard }) {
  return (
    <dl className="row mb-3">
      <dt className="col-5">Card</dt>
      <dd className="col-7">
        {card.brand} ending in {card.last4}
      </dd>
      <dt className="col-5">Expires</dt>
      <dd className="col-7">
        {String(card.exp_month).padStart(2, '0')}/{card.exp_year}
      </dd>
      {card.postal_code && (
        <>
          <dt className="col-5">Postal Code</dt>
          <dd className="col-7">{card.postal_code}</dd>
        </>
      )}
    </dl>
  );
}

type Props = {
  userId: number;
  /** Called after a card has been saved (signup shows its Next Step button then). */
  onSaved?: () => void;
  headingLevel?: 2 | 3;
  /**
   * Wait this long before mounting the card widget (staff spec §9: 500 ms on the admin user
   * page, so the page's own data and layout settle before Stripe's iframe loads).
   */
  mountDelayMs?: number;
};

/** True once `ms` have passed since the first render (at once for 0). */
function useDelay(ms: number) {
  const [done, setDone] = useState(ms <= 0);
  useEffect(() => {
    if (ms <= 0) return;
    const timer = setTimeout(() => setDone(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return done;
}

/**
 * Payment method panel (spec customer §2 Dashboard, staff §2 admin user page): with no card,
 * a card entry, Add Payment Method and the terms link; with a card, its brand, last four
 * digits, expiry, postal code if any, and Update Payment Method.
 */
export function PaymentMethodPanel({ userId, onSaved, headingLevel = 2, mountDelayMs = 0 }: Props) {
  const client = useQueryClient();
  const widgetReady = useDelay(mountDelayMs);
  const card = useQuery(cardQuery(userId));
  const [editing, setEditing] = useState(false);
  const Heading = `h${headingLevel}` as const;

  const onToken = async (token: string) => {
    await saveCard(userId, token);
    await Promise.all([
      client.invalidateQueries({ queryKey: ['users', userId] }),
      client.refetchQueries(cardQuery(userId)),
    ]);
    setEditing(false);
    showAlert(CARD_SAVED, 'success', 5_000);
    onSaved?.();
  };

  let body;
  if (card.isPending || (!widgetReady && (!card.data || editing)))
    body = <SpinnerScreen label="Loading payment method…" />;
  else if (card.isError) body = <p className="text-danger">{errorMessage(card.error)}</p>;
  else if (card.data && !editing) {
    body = (
      <>
        <SavedCardDetails card={card.data} />
        <Button variant="outline-primary" onClick={() => setEditing(true)}>
          Update Payment Method
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <CardEntry
          submitLabel={card.data ? 'Update Payment Method' : 'Add Payment Method'}
          onToken={onToken}
          onCancel={card.data ? () => setEditing(false) : undefined}
        />
        <p className="small text-body-secondary mt-3 mb-0">
          By saving a payment method you agree to our <TermsLink />.
        </p>
      </>
    );
  }

  return (
    <Card className="mb-4">
      <Card.Body>
        <Heading className="h4 card-title mb-3">Payment Method</Heading>
        {body}
      </Card.Body>
    </Card>
  );
}
