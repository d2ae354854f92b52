import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { ChallengeStillOpen } from '../../../components/payment-method/challenge-still-open';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { processCheckout } from '../../../lib/api/process-checkout';

/**
 * Where the local provider's 3-D Secure page brings the customer back (decision 0085): the
 * checkout is processed again, which finishes it as the challenge ended (paid, or released with
 * one message); a challenge still open offers its page again.
 */
export default function CheckoutAuthenticatedScreen() {
  const id = Number(useParams().id);
  const client = useQueryClient();
  const finish = useMutation({
    mutationFn: () => processCheckout(id),
    onSettled: () => client.invalidateQueries(),
  });
  const { mutate } = finish;
  useEffect(() => mutate(), [mutate]);

  let body;
  if (finish.isIdle || finish.isPending) body = <SpinnerScreen label="Finishing your booking…" />;
  else if (finish.isError)
    body = (
      <>
        <Alert variant="danger">{errorMessage(finish.error)}</Alert>
        <Link className="btn btn-primary" to={pathTo('reservations')}>
          Book Again
        </Link>
      </>
    );
  else if (finish.data.status === 'awaiting_authentication')
    body = <ChallengeStillOpen challengeUrl={finish.data.challenge_url} />;
  else
    body = (
      <>
        <Alert variant="success">Your booking is confirmed and paid.</Alert>
        <Link className="btn btn-primary" to={pathTo('dashboard')}>
          Go to Dashboard
        </Link>
      </>
    );

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <PageTitle>Your Booking</PageTitle>
      {body}
    </section>
  );
}
