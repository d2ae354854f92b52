import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { showAlert } from '../../lib/alerts';
import { plainErrorMessage } from '../../lib/error-message';

export const CARD_SAVED_AFTER_CHALLENGE = 'Your payment method has been saved.';

/**
 * The local provider's challenge page comes back to the page the card was entered on with
 * `?setup_intent=seti_…` (as Stripe's redirects do): the card is saved now, if the challenge
 * passed, and the parameter leaves the address so a reload does not send it again.
 */
export function useCardSetupReturn() {
  const [params, setParams] = useSearchParams();
  const client = useQueryClient();
  const setupIntent = params.get('setup_intent');
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!setupIntent || sent.current === setupIntent) return;
    sent.current = setupIntent;
    setParams(
      (p) => {
        p.delete('setup_intent');
        return p;
      },
      { replace: true },
    );
    // The card calls load on demand: the layout is in every page's first load, a return from
    // the bank's check is rare (issue 46, decision 0126).
    import('./card-api')
      .then(({ finishCardSetup }) => finishCardSetup('me', setupIntent))
      .then(async () => {
        await client.invalidateQueries({ queryKey: ['users'] });
        showAlert(CARD_SAVED_AFTER_CHALLENGE, 'success', 5_000);
      })
      .catch((error: unknown) => showAlert(plainErrorMessage(error), 'danger'));
  }, [setupIntent, setParams, client]);
}
