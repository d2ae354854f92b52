import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { User } from '@paddock/contract/accounts';
import { showError } from '../../../lib/alerts';
import { useVenueConfig } from '../../../lib/venue-config';
import { formatMoney } from '@paddock/contract/money-format';
import { subscriptionsQuery } from '../../../lib/api/list-subscriptions';
import { unenrollPresent } from '../api/unenroll';
import { cancelled } from './cancellation-return';

export const CANCEL_IRREVERSIBLE =
  'Cancelling your membership is irreversible: your monthly plan stops and your unused credits expire.';
export const CANCEL_CHARGE_BACK =
  'Cancelling within two billing cycles charges back the discounts given.';
/** What cancelling now will charge, said before the customer confirms (issue 30). */
export function chargeBackSentence(cents: number, currency: string): string {
  return cents > 0
    ? `Cancelling now charges ${formatMoney(cents, currency)} to your card: the discounts given, charged back as the terms say.`
    : 'Cancelling now charges nothing.';
}
export const NOT_CANCELABLE =
  'Your membership cannot be cancelled online right now. Please contact us to cancel it.';

type Props = { user: User; show: boolean; onHide: () => void };

/**
 * The cancel-subscription modal (customer §2 Dashboard): irreversible, with the terms'
 * charge-back; the confirm button works only when `credits_subscription_cancelable`. Success
 * sets good standing false at once (customer §4) and then reloads the user.
 */
export function CancelSubscriptionModal({ user, show, onHide }: Props) {
  const config = useVenueConfig();
  const client = useQueryClient();
  const cancel = useMutation({
    mutationFn: unenrollPresent,
    onSuccess: async (answer) => {
      await cancelled(client, user.id, answer);
      onHide();
    },
    onError: (error) => showError(error),
  });
  const subscriptions = useQuery({ ...subscriptionsQuery, enabled: show });
  const chargeBack = subscriptions.data?.[0]?.cancel_charge_back_cents;
  const cancelable = user.credits_subscription_cancelable;

  return (
    <Modal
      show={show}
      onHide={cancel.isPending ? () => {} : onHide}
      aria-labelledby="cancel-subscription-title"
    >
      <Modal.Header closeButton={!cancel.isPending} closeLabel="Close">
        <Modal.Title id="cancel-subscription-title">Cancel Subscription</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          You are about to cancel your <strong>{config.club_name}</strong> membership.{' '}
          {CANCEL_IRREVERSIBLE}
        </p>
        <p>{CANCEL_CHARGE_BACK}</p>
        <p className="fw-semibold" aria-live="polite">
          {chargeBack === undefined
            ? 'Working out what cancelling now charges…'
            : chargeBackSentence(chargeBack, config.default_currency)}
        </p>
        {!cancelable && <p className="text-danger mb-0">{NOT_CANCELABLE}</p>}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide} disabled={cancel.isPending}>
          Keep Membership
        </Button>
        <Button
          variant="danger"
          disabled={!cancelable || cancel.isPending || chargeBack === undefined}
          onClick={() => cancel.mutate()}
        >
          {cancel.isPending && <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />}
          Cancel Subscription
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
