import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import type { DeletionBooking } from '@paddock/contract/my-data';
import { TextField } from '../../../components/text-field';
import { showAlert, showError } from '../../../lib/alerts';
import { serverFieldErrors } from '../../../lib/field-errors';
import { endSession } from '../../../lib/session';
import { deletionPreviewQuery } from '../../../lib/api/deletion-preview';
import { deleteMyAccount } from '../api/my-data';

const when = (b: DeletionBooking) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: b.timezone,
  }).format(new Date(b.starts_at));

/**
 * "Delete my account" (decision 0124): what it does is stated first (the future bookings and
 * what each gives back, from the same quote a cancel uses; the club, vouchers, laps), then the
 * current password confirms it. Afterwards the session ends here too.
 */
export function DeleteAccountDialog({ onHide }: { onHide: () => void }) {
  const preview = useQuery(deletionPreviewQuery('me'));
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => deleteMyAccount(password),
    onSuccess: (answer) => {
      endSession(client);
      showAlert(answer.detail, 'success');
      void navigate('/');
    },
    onError: (failure) => {
      const fields = serverFieldErrors(failure);
      if (fields?.current_password) setError(fields.current_password);
      else showError(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    remove.mutate();
  };
  return (
    <Modal show onHide={onHide} aria-labelledby="delete-account-title">
      <form onSubmit={submit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="delete-account-title" as="h2" className="h5">
            Delete my account?
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {preview.isPending && <Spinner animation="border" size="sm" role="status" />}
          {preview.isError && <p role="alert">{String(preview.error.message)}</p>}
          {preview.data && (
            <>
              <p className="fw-semibold">This cannot be undone. Deleting your account:</p>
              <ul>
                {preview.data.statements.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
              {preview.data.bookings.length > 0 && (
                <>
                  <h3 className="h6">Bookings cancelled</h3>
                  <ul>
                    {preview.data.bookings.map((b) => (
                      <li key={b.reservation}>
                        {b.location}, {b.seat}, {when(b)}:{' '}
                        {b.refund.lines.length > 0 ? b.refund.lines.join('; ') : 'nothing back'}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} autoFocus>
            Keep my account
          </Button>
          <Button
            type="submit"
            variant="danger"
            disabled={!preview.data || remove.isPending || password === ''}
          >
            Delete my account
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
