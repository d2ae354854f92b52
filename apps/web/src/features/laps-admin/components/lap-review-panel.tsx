import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { Paginated } from '@paddock/contract/common';
import type { Lap } from '@paddock/contract/laps';
import { Pager } from '../../../components/pager';
import { api } from '../../../lib/api-client';
import { showError } from '../../../lib/alerts';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { ReasonDialog } from '../../../components/reason-dialog';
import { SearchBox } from '../../../components/search-box';

/** Every racer's laps, newest first; staff invalidate (with a reason) or restore one. */
export function LapReviewPanel() {
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  /** The lap staff are giving a reason to invalidate. */
  const [invalidating, setInvalidating] = useState<Lap | null>(null);
  const keywords = useDebouncedValue(search.trim(), 300);
  const laps = useQuery({
    queryKey: ['laps', 'all', keywords, page],
    queryFn: () =>
      api<Paginated<Lap>>('/laps', {
        query: { search: keywords || undefined, page, ordering: '-created' },
      }),
    placeholderData: keepPreviousData,
  });
  const review = useMutation({
    mutationFn: ({ lap, approved, reason }: { lap: Lap; approved: boolean; reason?: string }) =>
      api<Lap>(`/laps/${lap.id}`, { method: 'PATCH', body: { approved, reason } }),
    onSuccess: () => {
      setInvalidating(null);
      return client.invalidateQueries({ queryKey: ['laps'] });
    },
    onError: (error) => showError(error),
  });
  return (
    <section aria-labelledby="review-title">
      <h2 id="review-title" className="h4">
        Lap Review
      </h2>
      <div className="d-flex mb-2">
        <SearchBox
          id="review-search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          label="Track or car"
        />
      </div>
      <Table responsive size="sm" className="align-middle" aria-busy={laps.isFetching}>
        <thead>
          <tr>
            <th scope="col">Racer</th>
            <th scope="col">Track</th>
            <th scope="col">Car</th>
            <th scope="col">Time</th>
            <th scope="col">Valid</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {laps.data?.results.map((lap) => (
            <tr key={lap.id}>
              <td>{lap.display_name}</td>
              <td>{lap.track_name}</td>
              <td>{lap.car_name}</td>
              <td className="font-monospace">{lap.hms}</td>
              <td>{lap.approved ? 'Yes' : `No: ${lap.invalid_reason}`}</td>
              <td>
                {lap.approved ? (
                  <Button size="sm" variant="outline-danger" onClick={() => setInvalidating(lap)}>
                    Invalidate
                    <span className="visually-hidden">
                      {' '}
                      {lap.hms} by {lap.display_name}
                    </span>
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    variant="outline-success"
                    onClick={() => review.mutate({ lap, approved: true })}
                  >
                    Restore
                    <span className="visually-hidden">
                      {' '}
                      {lap.hms} by {lap.display_name}
                    </span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager page={page} pageCount={laps.data?.page_count ?? 1} onPage={setPage} label="laps" />
      <ReasonDialog
        title="Invalidate Lap"
        question={
          invalidating
            ? `Why is ${invalidating.display_name}'s ${invalidating.hms} not valid?`
            : 'Why is this lap not valid?'
        }
        confirm="Invalidate"
        show={invalidating !== null}
        busy={review.isPending}
        onHide={() => setInvalidating(null)}
        onConfirm={(reason) =>
          invalidating && review.mutate({ lap: invalidating, approved: false, reason })
        }
      />
    </section>
  );
}
