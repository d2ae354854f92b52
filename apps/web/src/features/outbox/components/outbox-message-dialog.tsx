import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import {
  OUTBOX_STATUS_LABELS,
  type OutboxMessage,
  type OutboxResend,
} from '@paddock/contract/outbox';
import { api } from '../../../lib/api-client';
import { showError } from '../../../lib/alerts';
import { useVenueTime } from '../../../lib/venue-time';

const bodyStyle = { whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: '50vh' } as const;

/**
 * One kept mail, opened: only now is its body (and any login link in it) fetched. Its text and
 * its HTML (as source: a mail's markup is never run inside the staff app), and Resend: the same
 * mail again to the same address, kept anew while no mail server is set (decision 0115).
 */
export function OutboxMessageDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const time = useVenueTime();
  const client = useQueryClient();
  const message = useQuery({
    queryKey: ['outbox', 'message', id],
    queryFn: () => api<OutboxMessage>(`/outbox/${id}`),
    // A body holds login links: not kept once the dialog is closed.
    gcTime: 0,
  });
  const resend = useMutation({
    mutationFn: () => api<OutboxResend>(`/outbox/${id}/resend`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['outbox', 'list'] }),
    onError: (error) => showError(error),
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
              <dt className="col-4 col-sm-3">To</dt>
              <dd className="col-8 col-sm-9 text-break">{m.to}</dd>
              <dt className="col-4 col-sm-3">When</dt>
              <dd className="col-8 col-sm-9">
                <time dateTime={m.created}>{time.dateTime(m.created)}</time>
              </dd>
              <dt className="col-4 col-sm-3">Status</dt>
              <dd className="col-8 col-sm-9">{OUTBOX_STATUS_LABELS[m.status]}</dd>
            </dl>
            <Tabs defaultActiveKey="text" id={`outbox-body-${id}`} className="mb-2">
              <Tab eventKey="text" title="Text">
                <pre
                  className="border rounded p-2 small mb-0"
                  style={bodyStyle}
                  tabIndex={0}
                  aria-label="Message text"
                >
                  {m.text}
                </pre>
              </Tab>
              <Tab eventKey="html" title="HTML">
                {m.html ? (
                  <pre
                    className="border rounded p-2 small mb-0"
                    style={bodyStyle}
                    tabIndex={0}
                    aria-label="Message HTML"
                  >
                    {m.html}
                  </pre>
                ) : (
                  <p className="mb-0">This mail has no HTML part.</p>
                )}
              </Tab>
            </Tabs>
          </>
        )}
        {resend.data && (
          <Alert
            variant={resend.data.status === 'kept' ? 'warning' : 'success'}
            className="mt-3 mb-0"
            role="status"
          >
            {resend.data.detail}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" disabled={!m || resend.isPending} onClick={() => resend.mutate()}>
          Resend
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
