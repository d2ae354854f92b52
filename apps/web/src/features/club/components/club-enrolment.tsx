import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { NO_CARD_FOR_CLUB_MESSAGE, type CreditsEnrollResponse } from '@paddock/contract/club';
import type { User } from '@paddock/contract/accounts';
import { cardQuery, saveCard } from '../../../components/payment-method/card-api';
import { CARD_SAVED, CardEntry } from '../../../components/payment-method/payment-method-panel';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { TermsLink } from '../../../components/terms-modals';
import { showAlert, showError } from '../../../lib/alerts';
import { userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useVenueConfig } from '../../../lib/venue-config';
import { enrollInClub } from '../api/enroll';
import { useCreditsQuote } from '../api/get-credits-quote';
import { initialSessions, minimumSessions } from '../club-rules';
import { ClubQuote } from './club-quote';
import { SessionsSpinner } from './sessions-spinner';

/** Staff spec §9: the spinner's quote waits for 300 ms of quiet. */
export const QUOTE_DEBOUNCE_MS = 300;

/** Customer §4: enrolling marks the user a club member and sets the credits balance. */
export function asMember(user: User, joined: CreditsEnrollResponse): User {
  return {
    ...user,
    credits_subscription_exists: true,
    credits_subscription_in_good_standing: joined.subscription.good_standing,
    credits_subscription_cancelable: joined.subscription.cancelable,
    credits_balance: joined.credits_balance,
    credits_recurring: joined.subscription.credits_per_month,
    credits_recurring_cents: joined.subscription.price_cents,
    credits_cycle_day_of_month: joined.subscription.cycle_day_of_month,
    subscription_id: String(joined.subscription.id),
  };
}

function Pitch() {
  const config = useVenueConfig();
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h4 card-title">Why join?</h2>
        <p className="lead">
          Save {config.club_discount_percent}% on every race with a monthly plan of race credits.
        </p>
        <ul>
          <li>
            Your credits cost {config.club_discount_percent}% less than paying per race, and they
            are added to your account every month on your billing day.
          </li>
          <li>Booking fees are waived for members.</li>
          <li>Book with your credits at checkout, like any other booking.</li>
          <li>
            Membership lasts a minimum of two billing cycles: cancelling within two billing cycles
            charges back the discounts given.
          </li>
        </ul>
        <p className="small text-body-secondary mb-0">
          Membership is subject to our <TermsLink />.
        </p>
      </Card.Body>
    </Card>
  );
}

type Props = {
  /** Who joins: the signed-in customer (/subscription) or a customer staff act for. */
  user: User;
  /** The join button's text (the page's title). */
  title: string;
  /** Sessions asked for in the address (`?sessions=`), if any. */
  requestedSessions?: string | null;
  /** After a successful enrolment; the user's cached data is already updated. */
  onJoined: (joined: CreditsEnrollResponse) => void;
};

/**
 * The club enrolment (customer §2 /subscription, staff §5 add subscription): the pitch, a
 * sessions-per-month spinner with its live quote, the card form first when no card is saved
 * ('Add a payment method to add a new subscription'), and the join button. The same rules and
 * quote whoever joins; `POST /users/{id}/charges/credits_enroll` charges that user's card.
 */
export function ClubEnrolment({ user, title, requestedSessions, onJoined }: Props) {
  const config = useVenueConfig();
  const client = useQueryClient();
  const min = minimumSessions(config);
  const [sessions, setSessions] = useState(() => initialSessions(requestedSessions ?? null, min));
  const quotedSessions = useDebouncedValue(sessions, QUOTE_DEBOUNCE_MS);
  const quote = useCreditsQuote(quotedSessions * config.club_credits_per_session);
  const card = useQuery(cardQuery(user.id));

  const join = useMutation({
    mutationFn: () => enrollInClub(sessions * config.club_credits_per_session, user.id),
    onSuccess: (joined) => {
      client.setQueryData(userQuery(user.id).queryKey, (u) => u && asMember(u, joined));
      void client.invalidateQueries({ queryKey: userQuery(user.id).queryKey, exact: true });
      void client.invalidateQueries({ queryKey: ['users', 'me'] });
      onJoined(joined);
    },
    onError: (error) => showError(error),
  });

  const onCardToken = async (token: string) => {
    await saveCard(user.id, token);
    await Promise.all([
      client.invalidateQueries({ queryKey: userQuery(user.id).queryKey, exact: true }),
      client.refetchQueries(cardQuery(user.id)),
    ]);
    showAlert(CARD_SAVED, 'success', 5_000);
  };

  // Join only at the price on screen: not while a newer quote is on its way.
  const quoteReady =
    quote.isSuccess && !quote.isPlaceholderData && !quote.isFetching && quotedSessions === sessions;

  let payment;
  if (card.isPending) payment = <SpinnerScreen label="Loading payment method…" />;
  else if (card.isError) payment = <p className="text-danger">{errorMessage(card.error)}</p>;
  else if (!card.data) {
    payment = (
      <>
        <p className="fw-semibold text-warning-emphasis">{NO_CARD_FOR_CLUB_MESSAGE}</p>
        <CardEntry submitLabel="Add Payment Method" onToken={onCardToken} />
      </>
    );
  } else {
    payment = (
      <>
        <p className="mb-3">
          Paying with {card.data.brand} ending in {card.data.last4}.
        </p>
        <Button
          size="lg"
          className="w-100"
          disabled={!quoteReady || join.isPending}
          onClick={() => join.mutate()}
        >
          {join.isPending && <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />}
          {title}
        </Button>
      </>
    );
  }

  return (
    <Row className="g-4">
      <Col lg={6}>
        <Pitch />
      </Col>
      <Col lg={6}>
        <Card className="mb-4">
          <Card.Body>
            <h2 className="h4 card-title mb-3">Plan</h2>
            <SessionsSpinner
              value={sessions}
              onChange={setSessions}
              min={min}
              disabled={join.isPending}
            />
            <p className="text-body-secondary">
              {sessions * config.club_credits_per_session} credits per month
            </p>
            <ClubQuote
              quote={quote.data}
              stale={!quoteReady}
              error={quote.isError ? errorMessage(quote.error) : undefined}
            />
          </Card.Body>
        </Card>
        <Card>
          <Card.Body>
            <h2 className="h4 card-title mb-3">Payment Method</h2>
            {payment}
          </Card.Body>
        </Card>
      </Col>
    </Row>
  );
}
