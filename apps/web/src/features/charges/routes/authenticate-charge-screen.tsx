import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import type { AuthenticateChargeResponse } from '@paddock/contract/charges';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { runChallenge } from '../../../components/payment-method/challenge';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';

const authenticate = (id: number) =>
  api<AuthenticateChargeResponse>(`/users/me/charges/${id}/authenticate`, { method: 'POST' });

type State = { kind: 'working' } | { kind: 'paid' } | { kind: 'failed'; message: string };

/**
 * The e-mailed link's page (decision 0085): a payment made without the customer (a club
 * renewal) that their bank wants authenticated. It runs the bank's challenge (the local
 * provider's page comes back here) and asks again, which completes the payment.
 */
export default function AuthenticateChargeScreen() {
  const id = Number(useParams().id);
  const client = useQueryClient();
  const [state, setState] = useState<State>({ kind: 'working' });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      try {
        let answer = await authenticate(id);
        if (answer.status === 'requires_action') {
          await runChallenge(answer);
          answer = await authenticate(id);
        }
        setState(
          answer.status === 'paid'
            ? { kind: 'paid' }
            : { kind: 'failed', message: 'The authentication is not complete yet.' },
        );
      } catch (error) {
        setState({ kind: 'failed', message: errorMessage(error) });
      } finally {
        void client.invalidateQueries();
      }
    })();
  }, [id, client]);

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <PageTitle>Authenticate Your Payment</PageTitle>
      {state.kind === 'working' && <SpinnerScreen label="Completing your payment…" />}
      {state.kind === 'paid' && (
        <Alert variant="success">Your payment is complete. Thank you!</Alert>
      )}
      {state.kind === 'failed' && <Alert variant="danger">{state.message}</Alert>}
      {state.kind !== 'working' && (
        <Link className="btn btn-primary" to={pathTo('dashboard')}>
          Go to Dashboard
        </Link>
      )}
    </section>
  );
}
