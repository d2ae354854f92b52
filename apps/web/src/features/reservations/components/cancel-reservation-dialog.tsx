import { useQueries } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { Reservation } from '@paddock/contract/reservations';
import { showAlert, showError } from '../../../lib/alerts';
import { errorMessage } from '../../../lib/error-message';
import { formatMoney } from '@paddock/contract/money-format';
import { refundSummary } from '../refund-summary';
import { formatSlotDateTime } from '../../../lib/slot-format';
import { cancelQuoteQuery } from '../api/cancel-quote';
import { useCancelReservations } from '../api/cancel-reservation';

/**
 * Cancel an upcoming booking from the dashboard: first what comes back and how (one quote per
 * half-hour of the entry), then the cancel itself. Nothing is cancelled until confirmed.
 */
export function CancelReservationDialog({
  reservation,
  onClose,
}: {
  reservation: Reservation;
  onClose: () => void;
}) {
  const ids = reservation.reservation_ids.length ? reservation.reservation_ids : [reservation.id];
  const quotes = useQueries({ queries: ids.map((id) => cancelQuoteQuery(id)) });
  const cancel = useCancelReservations();
  const loading = quotes.some((q) => q.isPending);
  const failed = quotes.find((q) => q.isError);
  const ready = !loading && !failed;
  const data = quotes.map((q) => q.data).filter((q) => q !== undefined);
  const total = data.reduce((n, q) => n + q.refund.total_cents, 0);

  const confirm = () =>
    cancel.mutate(ids, {
      onSuccess: (answers) => {
        const given = answers.flatMap((a) => (a.refund ? [a.refund.refund] : []));
        const lines = refundSummary(given, reservation.currency);
        const declined = answers.some((a) => a.refund?.card_status === 'failed');
        showAlert(
          [answers[0]?.detail ?? 'Your reservation is cancelled.', ...lines].join(' '),
          declined ? 'warning' : 'success',
        );
        onClose();
      },
      onError: (error) => showError(error),
    });

  return (
    <Modal show onHide={onClose} aria-labelledby="cancel-reservation-title" centered>
      <Modal.Header closeButton>
        <Modal.Title id="cancel-reservation-title" as="h2" className="h5">
          Cancel this reservation?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          <strong>{reservation.calendar_name}</strong>, {formatSlotDateTime(reservation.slot)} (
          {reservation.duration_minutes} minutes)
        </p>
        {loading && (
          <p role="status">
            <Spinner size="sm" className="me-2" aria-hidden="true" />
            Working out your refund…
          </p>
        )}
        {failed && <p className="text-danger">{errorMessage(failed.error)}</p>}
        {ready && data.length > 0 && (
          <>
            <p className="small text-body-secondary">{data[0].policy_text}</p>
            <h3 className="h6">What comes back</h3>
            {data.map((q, i) => (
              <div key={q.reservation}>
                {data.length > 1 && (
                  <p className="fw-semibold mb-1">
                    Half-hour {i + 1} of {data.length}
                  </p>
                )}
                <ul className="mb-2">
                  {q.refund.lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </div>
            ))}
            {data.length > 1 && (
              <p className="fw-semibold">
                In all: {formatMoney(total, reservation.currency)} back.
              </p>
            )}
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose} disabled={cancel.isPending}>
          Keep Reservation
        </Button>
        <Button
          variant="danger"
          onClick={confirm}
          disabled={!ready || cancel.isPending}
          aria-busy={cancel.isPending}
        >
          {cancel.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Cancel Reservation
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
