import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { OutboxMessage } from '@paddock/contract/outbox';
import { api } from '../../../lib/api-client';
import { useVenueTime } from '../../../lib/venue-time';

/** One kept mail, opened: only now is its body (and any login link in it) fetched. */
export function OutboxMessageDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const time = useVenueTime();
  const message = useQuery({
    queryKey: ['outbox', 'message', id],
    queryFn: () => api<OutboxMessage>(`/outbox/${id}`),
    // A body holds login links: not kept once the dialog is closed.
    gcTime: 0,
  });
  const m = message.data;
  return (
    <Modal show onHide={onClose} aria-labelledby="outbox-message-title" centered size="lg">
      <Modal.Header closeButton>
        <Modal.Title id="outbox-message-title" as="h2" className="h5">
          {m?.subject ?? 'Mail'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {message.isError && <p>This mail could not be opened.</p>}
        {m && (
          <>
            <dl className="row mb-3">
              <dt className="col-3">To</dt>
              <dd className="col-9 text-break">{m.to}</dd>
              <dt className="col-3">Sent</dt>
              <dd className="col-9">
                <time dateTime={m.created}>{time.dateTime(m.created)}</time>
              </dd>
            </dl>
            <pre
              className="border rounded p-2 small mb-0"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
              tabIndex={0}
              aria-label="Message text"
            >
              {m.text}
            </pre>
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
