import { useQuery } from '@tanstack/react-query';
import Form from 'react-bootstrap/Form';
import { SIM_NAMES, SIMS, type Board } from '@paddock/contract/laps';
import { groupsQuery, tracksQuery } from '../../../lib/api/catalog-queries';

/** A board as its form holds it: every value a string, '' for "Any" / none. */
export type BoardDraft = {
  name: string;
  calculation: string;
  track: string;
  sim: string;
  group: string;
  days: string;
};

export const EMPTY_BOARD: BoardDraft = {
  name: '',
  calculation: 'TIME',
  track: '',
  sim: '',
  group: '',
  days: '',
};

export const draftOfBoard = (b: Board): BoardDraft => ({
  name: b.name,
  calculation: b.calculation,
  track: b.track === null ? '' : String(b.track),
  sim: b.sim ?? '',
  group: b.group === null ? '' : String(b.group),
  days: b.time_frame_days === null ? '' : String(b.time_frame_days),
});

/** The body of a create or an update: the fields this form shows. */
export const boardBody = (draft: BoardDraft) => ({
  name: draft.name,
  calculation: draft.calculation,
  track: draft.track ? Number(draft.track) : null,
  sim: draft.sim || null,
  group: draft.group ? Number(draft.group) : null,
  time_frame_days: draft.days ? Number(draft.days) : null,
});

/**
 * The fields of a board (name, kind, track, sim, group, period), for New Board and for Edit.
 * `idPrefix` keeps two forms on one page apart.
 */
export function BoardFields({
  draft,
  onChange,
  idPrefix,
  wide = false,
}: {
  draft: BoardDraft;
  onChange: (draft: BoardDraft) => void;
  idPrefix: string;
  /** In a dialog: two columns, not the page's six. */
  wide?: boolean;
}) {
  const tracks = useQuery(tracksQuery('', 1, 100));
  const groups = useQuery(groupsQuery());
  const set = (patch: Partial<BoardDraft>) => onChange({ ...draft, ...patch });
  const col = (md: number) => (wide ? 'col-12 col-sm-6' : `col-6 col-md-${md}`);
  return (
    <>
      <Form.Group className={wide ? 'col-12' : 'col-12 col-md-4'} controlId={`${idPrefix}-name`}>
        <Form.Label>Name</Form.Label>
        <Form.Control required value={draft.name} onChange={(e) => set({ name: e.target.value })} />
      </Form.Group>
      <Form.Group className={col(2)} controlId={`${idPrefix}-kind`}>
        <Form.Label>Kind</Form.Label>
        <Form.Select
          value={draft.calculation}
          onChange={(e) => set({ calculation: e.target.value })}
        >
          <option value="TIME">TIME</option>
          <option value="POINTS">POINTS</option>
        </Form.Select>
      </Form.Group>
      <Form.Group className={col(2)} controlId={`${idPrefix}-track`}>
        <Form.Label>Track</Form.Label>
        <Form.Select value={draft.track} onChange={(e) => set({ track: e.target.value })}>
          <option value="">Any</option>
          {tracks.data?.results.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({SIM_NAMES[t.sim]})
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className={col(2)} controlId={`${idPrefix}-sim`}>
        <Form.Label>Sim</Form.Label>
        <Form.Select value={draft.sim} onChange={(e) => set({ sim: e.target.value })}>
          <option value="">Any</option>
          {SIMS.map((sim) => (
            <option key={sim} value={sim}>
              {SIM_NAMES[sim]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className={col(2)} controlId={`${idPrefix}-group`}>
        <Form.Label>Group</Form.Label>
        <Form.Select value={draft.group} onChange={(e) => set({ group: e.target.value })}>
          <option value="">Any</option>
          {groups.data?.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className={col(2)} controlId={`${idPrefix}-days`}>
        <Form.Label>Last … days</Form.Label>
        <Form.Control
          type="number"
          min={1}
          max={3650}
          value={draft.days}
          onChange={(e) => set({ days: e.target.value })}
        />
      </Form.Group>
    </>
  );
}
