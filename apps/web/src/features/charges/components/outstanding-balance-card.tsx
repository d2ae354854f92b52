import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { formatMoney } from '@paddock/contract/money-format';
import { cardQuery } from '../../../components/payment-method/card-api';
import { showAlert } from '../../../lib/alerts';
import { errorMessage } from '../../../lib/error-message';
import { outstandingSentence, payOutstandingQuestion } from '../../../lib/outstanding-words';
import { balanceQuery } from '../../../lib/api/get-balance';
import { finishOutstanding, payOutstandingPresent } from '../api/pay-outstanding';

/** The dashboard address the bank's challenge comes back to (server: outstandingReturnUrl). */
const RETURN_PARAM = 'outstanding';

/**
 * The customer's outstanding balance on the dashboard (decision 0096): what is owed and for
 * what, and, with a card on file, "Pay the outstanding $X now?" — a saved card is never charged
 * without that answer. Nothing when nothing is owed. A bank that asks runs its challenge; back
 * from the local provider's page (`?outstanding=authenticated`) the payment is finished here.
 */
export function OutstandingBalanceCard({ userId }: { userId: number }) {
  const client = useQueryClient();
  const balance = useQuery(balanceQuery(userId));
  const card = useQuery(cardQuery(userId));
  const pay = useMutation({
    mutationFn: (returning: boolean) => (returning ? finishOutstanding() : payOutstandingPresent()),
    onSuccess: (answer) => showAlert(answer.detail, 'success'),
    onError: (error) => showAlert(errorMessage(error), 'danger'),
    onSettled: () =>
      client.invalidateQueries({
        predicate: (q) => ['users', 'reservations', 'charges'].includes(String(q.queryKey[0])),
      }),
  });
  const [params, setParams] = useSearchParams();
  const returned = params.get(RETURN_PARAM) === 'authenticated';
  const sent = useRef(false);
  const { mutate } = pay;
  useEffect(() => {
    if (!returned || sent.current) return;
    sent.current = true;
    // Out of the address, so a reload does not finish it again.
    setParams(
      (p) => {
        p.delete(RETURN_PARAM);
        return p;
      },
      { replace: true },
    );
    mutate(true);
  }, [returned, setParams, mutate]);
  const owed = balance.data;
  if (!owed || owed.amount_cents <= 0) return null;
  const amount = formatMoney(owed.amount_cents, owed.currency);
  return (
    <Alert variant="warning" className="mb-4">
      <Alert.Heading as="h2" className="h5">
        Outstanding balance: {amount}
      </Alert.Heading>
      <p>{outstandingSentence(owed.amount_cents, owed.currency)}</p>
      <ul>
        {owed.detail.map((item) => (
          <li key={item.description}>
            {item.description}: {formatMoney(item.amount_cents, item.currency)}
          </li>
        ))}
      </ul>
      {card.data ? (
        <>
          <p className="fw-semibold">{payOutstandingQuestion(owed.amount_cents, owed.currency)}</p>
          <Button variant="primary" onClick={() => pay.mutate(false)} disabled={pay.isPending}>
            {pay.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Pay {amount} with {card.data.brand} ending in {card.data.last4}
          </Button>
        </>
      ) : (
        <p className="mb-0">Add a payment method to pay it.</p>
      )}
    </Alert>
  );
}
