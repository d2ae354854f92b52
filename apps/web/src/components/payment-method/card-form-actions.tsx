import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { CardEntryProps } from './card-entry';

type Props = Pick<CardEntryProps, 'submitLabel' | 'onCancel'> & {
  /** A card is being turned into a token: both buttons wait. */
  busy: boolean;
  /** The form can be sent (fields filled in, or Stripe.js loaded). */
  ready: boolean;
};

/** Submit and optional Cancel under either card form (local or Stripe). */
export function CardFormActions({ submitLabel, onCancel, busy, ready }: Props) {
  return (
    <div className="d-flex gap-2">
      <Button type="submit" disabled={!ready || busy}>
        {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        {submitLabel}
      </Button>
      {onCancel && (
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      )}
    </div>
  );
}
