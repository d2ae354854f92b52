import Modal from 'react-bootstrap/Modal';
import type { Board } from '@paddock/contract/laps';
import { SafeHtml } from '../safe-html';

/** A wall screen's Board Info: the description in a modal (loaded when first opened). */
export default function BoardInfoModal({
  board,
  show,
  onHide,
}: {
  board: Pick<Board, 'id' | 'name' | 'description'>;
  show: boolean;
  onHide: () => void;
}) {
  return (
    <Modal show={show} onHide={onHide} aria-labelledby={`board-${board.id}-info`} centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5" id={`board-${board.id}-info`}>
          {board.name}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <SafeHtml html={board.description} />
      </Modal.Body>
    </Modal>
  );
}
