import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreditsUnenrollResponse } from '@paddock/contract/club';
import { showAlert } from '../../../lib/alerts';
import { userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { finishUnenrol } from '../api/unenroll';

/** The dashboard address the bank's challenge comes back to (server: cancellationReturnUrl). */
const RETURN_PARAM = 'cancel';

/**
 * A cancellation done: good standing false at once (customer §4), the detail said, the user
 * reloaded.
 */
export async function cancelled(
  client: QueryClient,
  userId: number,
  answer: CreditsUnenrollResponse,
) {
  client.setQueryData(
    userQuery(userId).queryKey,
    (u) => u && { ...u, credits_subscription_in_good_standing: false },
  );
  showAlert(answer.detail, 'success');
  await Promise.all([
    client.invalidateQueries({ queryKey: userQuery(userId).queryKey, exact: true }),
    client.invalidateQueries({ queryKey: ['users', 'me'] }),
  ]);
}

/**
 * Back on the dashboard from the local provider's challenge page (`?cancel=authenticated`,
 * decision 0100): the cancellation is finished as the challenge ended, with one message.
 */
export function useCancellationReturn(userId: number | undefined) {
  const client = useQueryClient();
  const finish = useMutation({
    mutationFn: finishUnenrol,
    onSuccess: (answer) => (userId === undefined ? undefined : cancelled(client, userId, answer)),
    onError: (error) => showAlert(errorMessage(error), 'danger'),
  });
  const [params, setParams] = useSearchParams();
  const returned = params.get(RETURN_PARAM) === 'authenticated';
  const sent = useRef(false);
  const { mutate } = finish;
  useEffect(() => {
    if (!returned || sent.current || userId === undefined) return;
    sent.current = true;
    // Out of the address, so a reload does not finish it again.
    setParams(
      (p) => {
        p.delete(RETURN_PARAM);
        p.delete('payment_intent');
        return p;
      },
      { replace: true },
    );
    mutate();
  }, [returned, setParams, mutate, userId]);
}
