import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

type Props = {
  /** The question in the title: "Delete “Monza week”?". */
  title: string;
  /** What deleting does, in a sentence. */
  children: ReactNode;
  /** The danger button's words: "Delete Board". */
  confirm: string;
  busy: boolean;
  onHide: () => void;
  onConfirm: () => void;
};

/** Asks before a delete; Cancel has the focus, so Enter does not delete. */
export function ConfirmDeleteDialog({ title, children, confirm, busy, onHide, onConfirm }: Props) {
  return (
    <Modal show onHide={onHide} aria-labelledby="confirm-delete-title">
      <Modal.Header closeButton>
        <Modal.Title id="confirm-delete-title" as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" disabled={busy} onClick={onConfirm}>
          {confirm}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
