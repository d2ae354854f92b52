import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { ChallengeStillOpen } from '../../../components/payment-method/challenge-still-open';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { showAlert } from '../../../lib/alerts';
import { useCurrentUser, userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';
import { completeEnrolment } from '../api/enroll';
import { asMember } from '../components/club-enrolment';
import { clubWelcomeMessage, WELCOME_TOAST_MS } from './subscription-screen';

/**
 * Where the local provider's 3-D Secure page brings a joining member back (decision 0095): the
 * enrolment is completed as the challenge ended: the welcome and the dashboard, as after any
 * enrolment, or nothing charged with one message; a challenge still open offers its page again.
 */
export default function EnrolmentAuthenticatedScreen() {
  const id = Number(useParams().id);
  const config = useVenueConfig();
  const user = useCurrentUser().data;
  const client = useQueryClient();
  const navigate = useNavigate();
  const finish = useMutation({ mutationFn: () => completeEnrolment(id) });
  const { mutate } = finish;
  useEffect(() => mutate(), [mutate]);

  const joined = finish.data && !('status' in finish.data) ? finish.data : null;
  useEffect(() => {
    if (!joined || !user) return;
    client.setQueryData(userQuery(user.id).queryKey, (u) => u && asMember(u, joined));
    void client.invalidateQueries({ queryKey: ['users', 'me'] });
    showAlert(
      clubWelcomeMessage(config.club_name, joined.credits_balance),
      'success',
      WELCOME_TOAST_MS,
    );
    void navigate(pathTo('dashboard'), { replace: true });
  }, [joined, user, client, config.club_name, navigate]);

  let body;
  if (finish.isError)
    body = (
      <>
        <Alert variant="danger">{errorMessage(finish.error)}</Alert>
        <Link className="btn btn-primary" to={pathTo('subscription')}>
          Join the {config.club_name}
        </Link>
      </>
    );
  else if (finish.data && 'status' in finish.data)
    body = <ChallengeStillOpen challengeUrl={finish.data.challenge_url} />;
  else body = <SpinnerScreen label="Finishing your enrolment…" />;

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <PageTitle>{`Join the ${config.club_name}`}</PageTitle>
      {body}
    </section>
  );
}
