import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { ProcessResponse } from '@paddock/contract/checkout';
import { pathTo } from '../../lib/routes';
import { formatSlotDateTime } from '../../lib/slot-format';

/** "Book Another" and "Go Back" start the booking screen afresh (staff §4: reload). */
function reload() {
  window.location.reload();
}

/** Staff §4 Booking flow, success without a post-booking address: 'All Done'. */
export function AllDoneModal({ result }: { result: ProcessResponse | null }) {
  const navigate = useNavigate();
  return (
    <Modal show={!!result} onHide={reload} backdrop="static" aria-labelledby="all-done-title">
      <Modal.Header>
        <Modal.Title id="all-done-title">All Done</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>Your reservation is confirmed. We have e-mailed you the details.</p>
        {result && (
          <ul className="mb-0">
            {result.reservations.map((r) => (
              <li key={r.id}>
                {r.calendar_name}, {formatSlotDateTime(r.slot)}
              </li>
            ))}
          </ul>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => navigate(pathTo('logout'))}>
          Log Out
        </Button>
        <Button variant="primary" onClick={reload}>
          Book Another
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Staff §4/§8 Booking failure: the card was not charged; the seats stay unpaid. */
export function BookingErrorModal({ text }: { text: string | null }) {
  const navigate = useNavigate();
  return (
    <Modal show={!!text} onHide={reload} backdrop="static" aria-labelledby="booking-error-title">
      <Modal.Header>
        <Modal.Title id="booking-error-title">Booking Error</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0" role="alert">
          {text}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={() => navigate(pathTo('dashboard'))}>
          Review Payment Method
        </Button>
        <Button variant="outline-secondary" onClick={reload}>
          Go Back
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
