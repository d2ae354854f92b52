import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { User } from '@paddock/contract/accounts';
import { TextField } from '../../../components/text-field';
import { deletionPreviewQuery } from '../../../lib/api/deletion-preview';

/** What staff type to confirm: the e-mail, or the username when there is none. */
export const confirmationWord = (user: Pick<User, 'email' | 'username'>) =>
  user.email || user.username;

type Props = {
  user: User;
  show: boolean;
  busy: boolean;
  onHide: () => void;
  onConfirm: () => void;
};

/** The typed confirmation before the irreversible delete (staff spec §2). */
export function DeleteUserModal({ user, show, busy, onHide, onConfirm }: Props) {
  const [typed, setTyped] = useState('');
  const preview = useQuery({ ...deletionPreviewQuery(user.id), enabled: show });
  const word = confirmationWord(user);
  const matches = typed.trim().toLowerCase() === word.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && !busy) onConfirm();
  };
  const hide = () => {
    setTyped('');
    onHide();
  };
  return (
    <Modal show={show} onHide={hide} aria-labelledby="delete-user-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="delete-user-title">Delete User</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {/* What it does, from the server's preview: the same words the customer sees (0124). */}
          {preview.isPending && <Spinner animation="border" size="sm" role="status" />}
          {preview.data ? (
            <ul>
              {preview.data.statements.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          ) : (
            <p>
              This deletes the customer&rsquo;s personal details, saved card and logins, cancels
              their future bookings under the cancellation policy and ends their subscription.
              Charges and paid reservations are kept anonymously for the books.
            </p>
          )}
          <p className="fw-semibold text-danger">This cannot be undone.</p>
          <TextField
            label={
              <>
                Type <strong>{word}</strong> to confirm
              </>
            }
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={hide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!matches || busy}>
            {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Delete User
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
