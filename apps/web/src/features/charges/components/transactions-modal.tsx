// The transactions modal, apart from the dashboard's card that opens it: loaded when first
// opened, so the dashboard's first paint carries neither it nor react-bootstrap's Modal
// (decision 0064). The staff's user page opens it too.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { PAYMENT_METHOD_LABELS, type Charge } from '@paddock/contract/charges';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { formatMoney } from '@paddock/contract/money-format';
import { useVenueConfig } from '../../../lib/venue-config';
import { formatInstantShort } from '../../../lib/slot-format';
import { chargesQuery } from '../api/list-charges';
import { useRetryRefund } from '../api/retry-refund';
import { showAlert, showError } from '../../../lib/alerts';

export const NO_TRANSACTIONS = 'You have no transactions yet.';
export const NO_CUSTOMER_TRANSACTIONS = 'This customer has no transactions yet.';

function ChargeRow({ charge, zone, staff }: { charge: Charge; zone: string; staff: boolean }) {
  const when = formatInstantShort(charge.created, zone);
  const amount = formatMoney(charge.amount_cents, charge.currency);
  return (
    <tr>
      <td className="text-nowrap" data-label="Date">
        {when}
      </td>
      <td className="text-end text-nowrap" data-label="Amount">
        {amount}
      </td>
      <td data-label="Method">{PAYMENT_METHOD_LABELS[charge.method] ?? charge.method}</td>
      <td data-label="Notes">
        {charge.notes}
        {charge.errors && (
          <div className="text-danger small">
            <strong>Failed:</strong> {charge.errors}
          </div>
        )}
        {staff && charge.errors && charge.refund ? <RetryRefund refund={charge.refund} /> : null}
      </td>
      <td data-label="Receipt">
        {charge.receipt_url ? (
          <a href={charge.receipt_url} target="_blank" rel="noreferrer">
            Receipt
            <span className="visually-hidden">
              {' '}
              for {amount} on {when} (opens in a new tab)
            </span>
          </a>
        ) : (
          <>
            <span className="text-body-secondary" aria-hidden="true">
              —
            </span>
            <span className="visually-hidden">No receipt</span>
          </>
        )}
      </td>
    </tr>
  );
}

/** Staff send a declined card refund again (the customer's transactions on the admin page). */
function RetryRefund({ refund }: { refund: number }) {
  const retry = useRetryRefund();
  return (
    <Button
      size="sm"
      variant="outline-primary"
      className="mt-1"
      disabled={retry.isPending}
      onClick={() =>
        retry.mutate(refund, {
          onSuccess: (answer) =>
            showAlert(
              answer.detail,
              answer.refund?.card_status === 'succeeded' ? 'success' : 'warning',
            ),
          onError: (error) => showError(error),
        })
      }
    >
      Retry refund
    </Button>
  );
}

function TransactionsList({ userId }: { userId?: number }) {
  const config = useVenueConfig();
  const [page, setPage] = useState(1);
  const charges = useQuery(chargesQuery(page, userId));

  if (charges.isPending) return <SpinnerScreen label="Loading transactions…" />;
  if (charges.isError) return <p className="text-danger">{errorMessage(charges.error)}</p>;
  const { results, page_count } = charges.data;
  if (results.length === 0)
    return <p className="mb-0">{userId ? NO_CUSTOMER_TRANSACTIONS : NO_TRANSACTIONS}</p>;
  return (
    <>
      <Table
        responsive
        size="sm"
        className="align-middle paddock-stack-table"
        aria-busy={charges.isFetching}
      >
        <caption className="visually-hidden">
          Charges to {userId ? 'the customer’s' : 'your'} card, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col" className="text-end">
              Amount
            </th>
            <th scope="col">Method</th>
            <th scope="col">Notes</th>
            <th scope="col">Receipt</th>
          </tr>
        </thead>
        <tbody>
          {results.map((c) => (
            <ChargeRow
              key={c.id}
              charge={c}
              zone={config.default_timezone}
              staff={userId !== undefined}
            />
          ))}
        </tbody>
      </Table>
      {page_count > 1 && (
        <nav aria-label="Transaction pages" className="d-flex align-items-center gap-2">
          <Button
            variant="outline-secondary"
            size="sm"
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
          >
            Previous
          </Button>
          <span>
            Page {page} of {page_count}
          </span>
          <Button
            variant="outline-secondary"
            size="sm"
            disabled={page >= page_count}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </Button>
        </nav>
      )}
    </>
  );
}

type ModalProps = {
  show: boolean;
  onHide: () => void;
  /** Another user's charges (staff); the signed-in user's when left out. */
  userId?: number;
  title?: string;
};

/** Every charge to the card with its date, amount, notes and receipt, in a modal. */
export function TransactionsModal({
  show,
  onHide,
  userId,
  title = 'Recent Transactions',
}: ModalProps) {
  return (
    <Modal show={show} onHide={onHide} size="lg" scrollable aria-labelledby="transactions-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="transactions-title">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{show && <TransactionsList userId={userId} />}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
