import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import type { Board } from '@paddock/contract/laps';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { sanitizeHtml } from '../../../lib/sanitize-html';
import { boardResultsQuery, pointsQuery, type ResultsFilter } from '../api/boards-queries';
import { TimeBoardFilters } from './time-board-filters';
import { PointsBoard } from './points-board';
import { TimeBoard } from './time-board';

export const NO_LAPS_ON_BOARD = 'No laps for this leaderboard have been recorded yet';

/** "Since 1 March 2026" or the rolling frame ("Last week"). */
export function boardPeriod(board: Board): string {
  if (board.time_frame_pretty) return board.time_frame_pretty;
  if (board.since)
    return `Since ${DateTime.fromISO(board.since).toLocaleString(DateTime.DATE_FULL)}`;
  return 'All time';
}

function Entries({
  board,
  count,
  filterable,
}: {
  board: Board;
  count: number;
  filterable: boolean;
}) {
  const isTime = board.calculation === 'TIME';
  const [filter, setFilter] = useState<ResultsFilter>({ car: null, tyre: null });
  const time = useQuery({
    ...boardResultsQuery(board.id, count, filter),
    enabled: isTime,
    placeholderData: keepPreviousData,
  });
  const unfiltered = useQuery({
    ...boardResultsQuery(board.id, count),
    enabled: isTime && filterable,
  });
  const points = useQuery({ ...pointsQuery(board.id, count), enabled: !isTime });
  const q = isTime ? time : points;
  if (q.isPending) return <SpinnerScreen label="Loading the leaderboard…" />;
  if (q.isError) return <p className="text-danger">{errorMessage(q.error)}</p>;
  if (isTime) {
    const entries = time.data ?? [];
    const tyres = [...new Set((unfiltered.data ?? []).map((l) => l.tire).filter(Boolean))].sort();
    return (
      <>
        {filterable && (
          <TimeBoardFilters board={board} tyres={tyres} filter={filter} onChange={setFilter} />
        )}
        {entries.length ? <TimeBoard entries={entries} /> : <p>{NO_LAPS_ON_BOARD}</p>}
      </>
    );
  }
  const entries = points.data?.results ?? [];
  return entries.length ? <PointsBoard entries={entries} /> : <p>{NO_LAPS_ON_BOARD}</p>;
}

/** One board: title, period, description, entries. */
export function BoardView({
  board,
  count,
  headingLevel = 2,
  filterable = false,
}: {
  board: Board;
  count: number;
  headingLevel?: 1 | 2;
  /** Car and tyre filters above a TIME board (the leaderboards page; not wall screens). */
  filterable?: boolean;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <article aria-labelledby={`board-${board.id}-title`}>
      <Heading id={`board-${board.id}-title`} className="h3 mb-1">
        {board.name}
      </Heading>
      <p className="text-body-secondary mb-2">{boardPeriod(board)}</p>
      {board.description && (
        <div
          className="board-description mb-3"
          dangerouslySetInnerHTML={{ __html: sanitizeHtml(board.description) }}
        />
      )}
      <Entries board={board} count={count} filterable={filterable} />
    </article>
  );
}
