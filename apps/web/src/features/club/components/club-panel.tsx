import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { CENTS_PER_CREDIT } from '@paddock/contract/club-rules';
import type { User } from '@paddock/contract/accounts';
import { useCurrentUser } from '../../../lib/current-user';
import { formatMoney } from '@paddock/contract/money-format';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';
import { PlainAlert } from '../../../components/plain-alert';
import { useCancellationReturn } from './cancellation-return';

// Loaded when first opened: the modal's code is not needed for the first paint (decision 0064).
const CancelSubscriptionModal = lazy(() =>
  import('./cancel-subscription-modal').then((m) => ({ default: m.CancelSubscriptionModal })),
);

export const REVIEW_PAYMENT_METHOD =
  "We couldn't renew your membership: your last payment did not go through. Please review your payment method.";

/** 1 → "1st", 22 → "22nd". */
export function ordinal(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th');
  return `${day}${suffix}`;
}

function MemberDetails({ user }: { user: User }) {
  const config = useVenueConfig();
  const perSession = config.club_credits_per_session;
  const sessions = Math.floor(user.credits_recurring / perSession);
  return (
    <dl className="row mb-3">
      <dt className="col-sm-5">Credits balance</dt>
      <dd className="col-sm-7">
        {user.credits_balance} credits{' '}
        <span className="text-body-secondary">
          (worth {formatMoney(user.credits_balance * CENTS_PER_CREDIT, config.default_currency)})
        </span>
      </dd>
      <dt className="col-sm-5">Monthly plan</dt>
      <dd className="col-sm-7">
        {user.credits_recurring} credits ({sessions} {sessions === 1 ? 'session' : 'sessions'}) for{' '}
        {formatMoney(user.credits_recurring_cents, config.default_currency)} per month
      </dd>
      {user.credits_cycle_day_of_month !== null && (
        <>
          <dt className="col-sm-5">Renews</dt>
          <dd className="col-sm-7">
            On the {ordinal(user.credits_cycle_day_of_month)} of each month
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * The dashboard's club panel in its three looks (customer §2): a member in good standing
 * (Member, credits balance, monthly plan, Cancel Subscription); a membership not in good
 * standing (a danger alert to review the payment method); no membership (the promotion).
 * Nothing at all when the club is switched off.
 */
export function ClubPanel() {
  const config = useVenueConfig();
  const user = useCurrentUser().data;
  const [cancelling, setCancelling] = useState(false);
  const [cancelUsed, setCancelUsed] = useState(false);
  useCancellationReturn(user?.id);
  if (!config.club_enabled || !user) return null;

  let body;
  if (!user.credits_subscription_exists) {
    body = (
      <>
        <p className="fs-5 fw-semibold mb-2">Save {config.club_discount_percent}% on every race</p>
        <p>
          Join the {config.club_name}: monthly race credits at {config.club_discount_percent}% off,
          and no booking fees.
        </p>
        <Link className="btn btn-primary" to={pathTo('subscription')}>
          Join the {config.club_name}
        </Link>
      </>
    );
  } else {
    body = (
      <>
        {user.credits_subscription_in_good_standing ? (
          <MemberDetails user={user} />
        ) : (
          <PlainAlert variant="danger">{REVIEW_PAYMENT_METHOD}</PlainAlert>
        )}
        <Button
          variant="outline-danger"
          onClick={() => {
            setCancelUsed(true);
            setCancelling(true);
          }}
        >
          Cancel Subscription
        </Button>
        {cancelUsed && (
          <Suspense fallback={null}>
            <CancelSubscriptionModal
              user={user}
              show={cancelling}
              onHide={() => setCancelling(false)}
            />
          </Suspense>
        )}
      </>
    );
  }

  const member = user.credits_subscription_exists && user.credits_subscription_in_good_standing;
  return (
    <Card as="section" className="mb-4" aria-labelledby="club-panel-title">
      <Card.Body>
        <h2 id="club-panel-title" className="h4 card-title mb-3">
          {config.club_name}
          {member && (
            <Badge bg="success" className="ms-2 align-middle fs-6">
              Member
            </Badge>
          )}
        </h2>
        {body}
      </Card.Body>
    </Card>
  );
}
