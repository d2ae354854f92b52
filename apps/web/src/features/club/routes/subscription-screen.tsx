import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { showAlert } from '../../../lib/alerts';
import { useCurrentUser } from '../../../lib/current-user';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';
import { ClubEnrolment, QUOTE_DEBOUNCE_MS } from '../components/club-enrolment';

export { QUOTE_DEBOUNCE_MS };
/** Staff spec §8: the club welcome toast stays 15 s. */
export const WELCOME_TOAST_MS = 15_000;

export const clubWelcomeMessage = (clubName: string, credits: number) =>
  `Welcome to the ${clubName}! ${credits} credits have been added to your account.`;

/**
 * /subscription (customer §2, staff §4 Club enrollment): the club enrolment for the signed-in
 * user (`sessions` in the query pre-fills the spinner). After joining: the welcome toast and the
 * dashboard. Members, and everyone when the club is switched off, go straight to the dashboard.
 */
export default function SubscriptionScreen() {
  const config = useVenueConfig();
  const user = useCurrentUser().data;
  const navigate = useNavigate();
  const [params] = useSearchParams();

  if (!config.club_enabled || user?.credits_subscription_exists) {
    return <Navigate to={pathTo('dashboard')} replace />;
  }
  const title = `Join the ${config.club_name}`;
  return (
    <>
      <PageTitle>{title}</PageTitle>
      {user ? (
        <ClubEnrolment
          user={user}
          title={title}
          requestedSessions={params.get('sessions')}
          onJoined={(joined) => {
            showAlert(
              clubWelcomeMessage(config.club_name, joined.credits_balance),
              'success',
              WELCOME_TOAST_MS,
            );
            void navigate(pathTo('dashboard'), { replace: true });
          }}
        />
      ) : (
        <SpinnerScreen />
      )}
    </>
  );
}
