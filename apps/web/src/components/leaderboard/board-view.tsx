import { lazy, Suspense, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import type { Board } from '@paddock/contract/laps';
import { SpinnerScreen } from '../spinner-screen';
import { errorMessage } from '../../lib/error-message';
import { formatIsoDateFull } from '../../lib/slot-format';
import { preloadSafeHtml, SafeHtml } from '../safe-html';
import { boardResultsQuery, pointsQuery, type ResultsFilter } from '../../lib/api/boards-queries';
import { TimeBoardFilters } from './time-board-filters';
import { PointsBoard } from './points-board';
import { TimeBoard } from './time-board';

// Fetched beside the board's results, not before the first paint.
void preloadSafeHtml();

// Loaded when first opened: the modal's code is not needed for the first paint (decision 0045).
const BoardInfoModal = lazy(() => import('./board-info-modal'));

export const NO_LAPS_ON_BOARD = 'No laps for this leaderboard have been recorded yet';

/** "Since 1 March 2026" or the rolling frame ("Last week"). */
export function boardPeriod(board: Board): string {
  if (board.time_frame_pretty) return board.time_frame_pretty;
  if (board.since) return `Since ${formatIsoDateFull(board.since)}`;
  return 'All time';
}

function Entries({
  board,
  count,
  filterable,
  refetchMs,
}: {
  board: Board;
  count: number;
  filterable: boolean;
  refetchMs?: number;
}) {
  const isTime = board.calculation === 'TIME';
  const [filter, setFilter] = useState<ResultsFilter>({ car: null, tyre: null });
  const time = useQuery({
    ...boardResultsQuery(board.id, count, filter),
    enabled: isTime,
    placeholderData: keepPreviousData,
    refetchInterval: refetchMs,
  });
  const unfiltered = useQuery({
    ...boardResultsQuery(board.id, count),
    enabled: isTime && filterable,
  });
  const points = useQuery({
    ...pointsQuery(board.id, count),
    enabled: !isTime,
    refetchInterval: refetchMs,
  });
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
  description = 'shown',
  refetchMs,
}: {
  board: Board;
  count: number;
  headingLevel?: 1 | 2;
  /** Car and tyre filters above a TIME board (the leaderboards page; not wall screens). */
  filterable?: boolean;
  /** Wall screens keep the description in a Board Info modal unless asked to expand it. */
  description?: 'shown' | 'modal';
  /** Wall screens reload on their interval. */
  refetchMs?: number;
}) {
  const [info, setInfo] = useState(false);
  const [infoUsed, setInfoUsed] = useState(false);
  if (info && !infoUsed) setInfoUsed(true);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <article aria-labelledby={`board-${board.id}-title`}>
      <Heading id={`board-${board.id}-title`} className="h3 mb-1">
        {board.name}
      </Heading>
      <p className="text-body-secondary mb-2">{boardPeriod(board)}</p>
      {board.description && description === 'shown' && (
        <SafeHtml className="board-description mb-3" html={board.description} />
      )}
      {board.description && description === 'modal' && (
        <>
          <Button
            variant="outline-secondary"
            size="sm"
            className="mb-3"
            onClick={() => setInfo(true)}
          >
            Board Info
          </Button>
          {infoUsed && (
            <Suspense fallback={null}>
              <BoardInfoModal board={board} show={info} onHide={() => setInfo(false)} />
            </Suspense>
          )}
        </>
      )}
      <Entries board={board} count={count} filterable={filterable} refetchMs={refetchMs} />
    </article>
  );
}
