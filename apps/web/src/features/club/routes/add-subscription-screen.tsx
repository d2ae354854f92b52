import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { showAlert } from '../../../lib/alerts';
import { displayName, userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { pathTo, safeRedirect } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';
import { ClubEnrolment } from '../components/club-enrolment';

export const staffEnrolledMessage = (name: string, clubName: string, credits: number) =>
  `${name} joined the ${clubName}: ${credits} credits have been added to their account.`;

/**
 * /subscription/add?userId=&redirect= (route name addSubscription): staff enrol a customer in
 * the club with the customer's saved card, with the same quote and rules as the customer's own
 * enrolment, then go back to `redirect` (the admin user page). Without `userId` it is the
 * signed-in user's own enrolment.
 */
export default function AddSubscriptionScreen() {
  const config = useVenueConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const location = useLocation();
  const rawId = params.get('userId');
  const userId = rawId && /^\d+$/.test(rawId) ? Number(rawId) : null;
  const back = safeRedirect(
    params.get('redirect'),
    userId ? pathTo('adminUser', { userId }) : pathTo('dashboard'),
  );
  const user = useQuery({ ...userQuery(userId ?? 0), enabled: userId !== null });
  const title = 'Add Subscription';

  // No customer named: the signed-in user's own enrolment.
  if (userId === null) return <Navigate to={pathTo('subscription')} replace />;

  let body;
  if (user.isPending) {
    body = <SpinnerScreen />;
  } else if (user.isError) {
    body = <Alert variant="danger">{errorMessage(user.error)}</Alert>;
  } else if (!config.club_enabled) {
    body = <Alert variant="warning">The {config.club_name} is switched off.</Alert>;
  } else if (user.data.credits_subscription_exists) {
    body = (
      <Alert variant="info">
        {displayName(user.data)} already has a {config.club_name} subscription.
      </Alert>
    );
  } else {
    body = (
      <ClubEnrolment
        user={user.data}
        title={`Join the ${config.club_name}`}
        onJoined={(joined) => {
          showAlert(
            staffEnrolledMessage(displayName(user.data), config.club_name, joined.credits_balance),
            'success',
          );
          // Came from `redirect`: step back to it, so Back there is not this page again.
          if ((location.state as { from?: string } | null)?.from === back) void navigate(-1);
          else void navigate(back, { replace: true });
        }}
      />
    );
  }

  return (
    <>
      <PageTitle>{title}</PageTitle>
      {user.data && (
        <p className="lead">
          For {displayName(user.data)}
          {user.data.email && <> ({user.data.email})</>}
        </p>
      )}
      {body}
      <p className="mt-3">
        <Link to={back}>Back</Link>
      </p>
    </>
  );
}
