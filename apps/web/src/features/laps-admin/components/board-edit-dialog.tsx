import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Board } from '@paddock/contract/laps';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { BoardFields, boardBody, draftOfBoard } from './board-fields';

/** Edit a board's name, kind, track, sim, group and period. */
export function BoardEditDialog({ board, onClose }: { board: Board; onClose: () => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(() => draftOfBoard(board));
  const save = useMutation({
    mutationFn: () =>
      api<Board>(`/boards/${board.id}`, { method: 'PATCH', body: boardBody(draft) }),
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: ['boards'] });
      showAlert(`Saved the board ${saved.name}.`, 'success', 5_000);
      onClose();
    },
    onError: (error) => showError(error),
  });
  return (
    <Modal show onHide={onClose} aria-labelledby="board-edit-title">
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="board-edit-title" as="h2" className="h5">
            Edit {board.name}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="row g-2 mx-0">
          <BoardFields draft={draft} onChange={setDraft} idPrefix="board-edit" wide />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            Save Board
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
