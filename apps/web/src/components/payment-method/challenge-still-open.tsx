import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

/**
 * A return page whose payment's challenge is still open (decision 0085): the bank's page again,
 * when the provider has one (the local provider's), for the customer to answer.
 */
export function ChallengeStillOpen({ challengeUrl }: { challengeUrl?: string | null }) {
  return (
    <>
      <Alert variant="warning">
        Your bank is still waiting for you to authenticate this payment.
      </Alert>
      {challengeUrl && <Button href={challengeUrl}>Authenticate the Payment</Button>}
    </>
  );
}
