import { useQuery } from '@tanstack/react-query';
import FormGroup from 'react-bootstrap/FormGroup';
import FormLabel from 'react-bootstrap/FormLabel';
import FormSelect from 'react-bootstrap/FormSelect';
import type { Board } from '@paddock/contract/laps';
import { carsQuery } from '../../lib/api/catalog-queries';
import type { ResultsFilter } from '../../lib/api/boards-queries';

type Props = {
  board: Board;
  tyres: string[];
  filter: ResultsFilter;
  onChange: (filter: ResultsFilter) => void;
};

/** One board per track, narrowed on the page to one car or one tyre compound. */
export function TimeBoardFilters({ board, tyres, filter, onChange }: Props) {
  const cars = useQuery(carsQuery('', board.group, 1));
  return (
    <div className="d-flex flex-wrap gap-3 mb-3">
      <FormGroup controlId={`board-${board.id}-car`}>
        <FormLabel className="small mb-1">Car</FormLabel>
        <FormSelect
          size="sm"
          value={filter.car ?? ''}
          onChange={(e) =>
            onChange({ ...filter, car: e.target.value ? Number(e.target.value) : null })
          }
        >
          <option value="">All cars</option>
          {cars.data?.results.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </FormSelect>
      </FormGroup>
      <FormGroup controlId={`board-${board.id}-tyre`}>
        <FormLabel className="small mb-1">Tyre</FormLabel>
        <FormSelect
          size="sm"
          value={filter.tyre ?? ''}
          onChange={(e) => onChange({ ...filter, tyre: e.target.value || null })}
        >
          <option value="">All tyres</option>
          {tyres.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </FormSelect>
      </FormGroup>
    </div>
  );
}
