import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { SIM_NAMES, SIMS, type Board } from '@paddock/contract/laps';
import { api } from '../../../lib/api-client';
import { showError } from '../../../lib/alerts';
import { groupsQuery, tracksQuery } from '../../catalog/api/catalog-queries';

const allBoardsQuery = {
  queryKey: ['boards', 'all'],
  queryFn: () => api<Board[]>('/boards', { query: { all: true } }),
};

/** Staff create boards and switch them on and off. */
export function BoardsPanel() {
  const client = useQueryClient();
  const boards = useQuery(allBoardsQuery);
  const tracks = useQuery(tracksQuery('', 1, 100));
  const groups = useQuery(groupsQuery());
  const [draft, setDraft] = useState({
    name: '',
    calculation: 'TIME',
    track: '',
    sim: '',
    group: '',
    days: '',
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['boards'] });
  const create = useMutation({
    mutationFn: () =>
      api<Board>('/boards', {
        method: 'POST',
        body: {
          name: draft.name,
          calculation: draft.calculation,
          track: draft.track ? Number(draft.track) : null,
          sim: draft.sim || null,
          group: draft.group ? Number(draft.group) : null,
          time_frame_days: draft.days ? Number(draft.days) : null,
        },
      }),
    onSuccess: () => {
      setDraft({ name: '', calculation: 'TIME', track: '', sim: '', group: '', days: '' });
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
        <Form.Group className="col-12 col-md-4" controlId="board-name">
          <Form.Label>Name</Form.Label>
          <Form.Control
            required
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        </Form.Group>
        <Form.Group className="col-6 col-md-2" controlId="board-kind">
          <Form.Label>Kind</Form.Label>
          <Form.Select
            value={draft.calculation}
            onChange={(e) => setDraft({ ...draft, calculation: e.target.value })}
          >
            <option value="TIME">TIME</option>
            <option value="POINTS">POINTS</option>
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-6 col-md-2" controlId="board-track">
          <Form.Label>Track</Form.Label>
          <Form.Select
            value={draft.track}
            onChange={(e) => setDraft({ ...draft, track: e.target.value })}
          >
            <option value="">Any</option>
            {tracks.data?.results.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({SIM_NAMES[t.sim]})
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-6 col-md-2" controlId="board-sim">
          <Form.Label>Sim</Form.Label>
          <Form.Select
            value={draft.sim}
            onChange={(e) => setDraft({ ...draft, sim: e.target.value })}
          >
            <option value="">Any</option>
            {SIMS.map((sim) => (
              <option key={sim} value={sim}>
                {SIM_NAMES[sim]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-6 col-md-2" controlId="board-group">
          <Form.Label>Group</Form.Label>
          <Form.Select
            value={draft.group}
            onChange={(e) => setDraft({ ...draft, group: e.target.value })}
          >
            <option value="">Any</option>
            {groups.data?.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-6 col-md-2" controlId="board-days">
          <Form.Label>Last … days</Form.Label>
          <Form.Control
            type="number"
            min={1}
            max={3650}
            value={draft.days}
            onChange={(e) => setDraft({ ...draft, days: e.target.value })}
          />
        </Form.Group>
        <div className="col-12">
          <Button type="submit" disabled={create.isPending}>
            Create Board
          </Button>
        </div>
      </Form>
    </section>
  );
}
