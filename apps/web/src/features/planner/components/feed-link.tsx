import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';

/**
 * The read-only iCalendar feed of the planner, for a calendar app. The link carries this staff
 * member's own feed token: making a new one ends the old one, and it can be turned off.
 */
export function FeedLink() {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => api<{ url: string }>('/feed_token', { method: 'POST' }),
    onSuccess: (link) => setUrl(link.url),
    onError: (error) => showError(error),
  });
  const revoke = useMutation({
    mutationFn: () => api('/feed_token', { method: 'DELETE' }),
    onSuccess: () => {
      setUrl(null);
      showAlert('The calendar feed link is off.', 'success', 5_000);
    },
    onError: (error) => showError(error),
  });
  return (
    <>
      <Button size="sm" variant="outline-secondary" onClick={() => setOpen(true)}>
        Calendar Feed
      </Button>
      <Modal aria-labelledby="planner-modal-2" show={open} onHide={() => setOpen(false)}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-2" className="h5">
            Calendar Feed
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            A read-only iCalendar link to the planner, for a calendar app. Anyone with the link can
            read it: a new link ends the previous one.
          </p>
          {url && (
            <Form.Group controlId="planner-feed-url">
              <Form.Label>Feed address</Form.Label>
              <Form.Control readOnly value={url} onFocus={(e) => e.target.select()} />
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button
            variant="outline-danger"
            onClick={() => revoke.mutate()}
            disabled={revoke.isPending}
          >
            Turn Off
          </Button>
          <Button onClick={() => create.mutate()} disabled={create.isPending}>
            {url ? 'New Link' : 'Get Link'}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
