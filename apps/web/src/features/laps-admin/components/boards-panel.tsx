import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { SIM_NAMES, type Board } from '@paddock/contract/laps';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { BoardEditDialog } from './board-edit-dialog';
import { BoardFields, EMPTY_BOARD, boardBody } from './board-fields';

const allBoardsQuery = {
  queryKey: ['boards', 'all'],
  queryFn: () => api<Board[]>('/boards', { query: { all: true } }),
};

/** Staff create boards, switch them on and off, edit and delete them. */
export function BoardsPanel() {
  const client = useQueryClient();
  const boards = useQuery(allBoardsQuery);
  const [draft, setDraft] = useState(EMPTY_BOARD);
  const [editing, setEditing] = useState<Board | null>(null);
  const [deleting, setDeleting] = useState<Board | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['boards'] });
  const create = useMutation({
    mutationFn: () => api<Board>('/boards', { method: 'POST', body: boardBody(draft) }),
    onSuccess: () => {
      setDraft(EMPTY_BOARD);
      void refresh();
    },
    onError: (error) => showError(error),
  });
  const toggle = useMutation({
    mutationFn: (b: Board) =>
      api<Board>(`/boards/${b.id}`, { method: 'PATCH', body: { active: !b.active } }),
    onSuccess: refresh,
    onError: (error) => showError(error),
  });
  const remove = useMutation({
    mutationFn: (b: Board) => api(`/boards/${b.id}`, { method: 'DELETE' }),
    onSuccess: async (_, b) => {
      await refresh();
      showAlert(`Deleted the board ${b.name}.`, 'success', 5_000);
      setDeleting(null);
    },
    onError: (error) => showError(error),
  });
  return (
    <section aria-labelledby="boards-title">
      <h2 id="boards-title" className="h4">
        Boards
      </h2>
      <Table responsive size="sm" className="align-middle">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Track</th>
            <th scope="col">Sim</th>
            <th scope="col">Group</th>
            <th scope="col">Period</th>
            <th scope="col">Shown</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {boards.data?.map((b) => (
            <tr key={b.id}>
              <td>{b.name}</td>
              <td>{b.calculation}</td>
              <td>{b.track_name ?? 'Any'}</td>
              <td>{b.sim ? SIM_NAMES[b.sim] : 'Any'}</td>
              <td>{b.group_name ?? 'Any'}</td>
              <td>{b.time_frame_pretty || b.since || 'All time'}</td>
              <td>
                <Form.Check
                  type="switch"
                  id={`board-active-${b.id}`}
                  label={<span className="visually-hidden">Show {b.name}</span>}
                  checked={b.active}
                  onChange={() => toggle.mutate(b)}
                />
              </td>
              <td className="text-nowrap">
                <Button
                  size="sm"
                  variant="outline-primary"
                  className="me-2"
                  onClick={() => setEditing(b)}
                >
                  Edit<span className="visually-hidden"> {b.name}</span>
                </Button>
                <Button size="sm" variant="outline-danger" onClick={() => setDeleting(b)}>
                  Delete<span className="visually-hidden"> {b.name}</span>
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h3 className="h5 mt-4">New Board</h3>
      <Form
        className="row g-2 align-items-end"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <BoardFields draft={draft} onChange={setDraft} idPrefix="board" />
        <div className="col-12">
          <Button type="submit" disabled={create.isPending}>
            Create Board
          </Button>
        </div>
      </Form>
      {editing && <BoardEditDialog board={editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDeleteDialog
          title={`Delete “${deleting.name}”?`}
          confirm="Delete Board"
          busy={remove.isPending}
          onHide={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting)}
        >
          The board goes away from the leaderboards and every wall screen showing it. The laps stay.
        </ConfirmDeleteDialog>
      )}
    </section>
  );
}
