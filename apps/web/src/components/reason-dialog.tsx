import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { TextField } from './text-field';

type Props = {
  /** The dialog's title, e.g. "Invalidate Lap". */
  title: string;
  /** What the reason answers, shown as the field's label. */
  question: string;
  /** The confirming button's text. */
  confirm: string;
  show: boolean;
  busy?: boolean;
  onHide: () => void;
  onConfirm: (reason: string) => void;
};

/**
 * Asks staff why before an action that needs a reason (instead of the browser's prompt, which a
 * tablet shows as a bare box, axe cannot check and the keyboard trap of its own).
 */
export function ReasonDialog({ title, question, confirm, show, busy, onHide, onConfirm }: Props) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('Please give a reason.');
    onConfirm(reason.trim());
  };
  return (
    <Modal
      show={show}
      onHide={busy ? () => {} : onHide}
      onExited={() => {
        setReason('');
        setError(undefined);
      }}
      aria-labelledby="reason-dialog-title"
    >
      <form onSubmit={submit} noValidate>
        <Modal.Header closeButton={!busy} closeLabel="Close">
          <Modal.Title id="reason-dialog-title">{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <TextField
            label={question}
            value={reason}
            maxLength={200}
            autoFocus
            error={error}
            onChange={(e) => {
              setReason(e.target.value);
              setError(undefined);
            }}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {confirm}
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
