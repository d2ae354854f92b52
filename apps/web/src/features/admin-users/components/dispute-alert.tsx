import Alert from 'react-bootstrap/Alert';
import type { Dispute } from '@paddock/contract/disputes';
import { formatMoney } from '@paddock/contract/money-format';

/** The flag on a customer with an open chargeback: what, why, which bookings, where to answer. */
export function DisputeAlert({ disputes }: { disputes: Dispute[] }) {
  const open = disputes.filter((d) => d.open);
  if (open.length === 0) return null;
  return (
    <Alert variant="danger" role="alert">
      <Alert.Heading as="h2" className="h6">
        Payment disputed
      </Alert.Heading>
      <ul className="mb-0">
        {open.map((d) => (
          <li key={d.id}>
            {formatMoney(d.amount_cents, d.currency)} ({d.reason.replaceAll('_', ' ')},{' '}
            {d.status.replaceAll('_', ' ')})
            {d.reservations.length > 0 &&
              `, bookings ${d.reservations.map((r) => `#${r}`).join(', ')}`}
            {' — '}
            <Alert.Link
              href={`https://dashboard.stripe.com/disputes/${encodeURIComponent(d.dispute_ref)}`}
              target="_blank"
              rel="noreferrer"
            >
              answer it at Stripe
            </Alert.Link>
          </li>
        ))}
      </ul>
    </Alert>
  );
}
