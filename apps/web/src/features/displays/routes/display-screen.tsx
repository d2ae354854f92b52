import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { boardsQuery } from '../../../lib/api/boards-queries';
import { BoardView, NO_LAPS_ON_BOARD } from '../../../components/leaderboard/board-view';
import { DISPLAY_DEFAULTS } from '../components/display-defaults';
import { TvScreen } from '../components/tv-screen';

// The form is for `/display` alone: a wall screen's first paint does without its code (decision 0048).
const DisplayForm = lazy(() =>
  import('../components/display-form').then((m) => ({ default: m.DisplayForm })),
);

const bounded = (value: string | null, lo: number, hi: number, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= lo && n <= hi ? n : fallback;
};

/** Leaderboard Display — spec customer §2 /display/:boardId?: a board for a TV on the wall. */
export default function DisplayScreen() {
  const { boardId } = useParams();
  const [query] = useSearchParams();
  const boards = useQuery(boardsQuery());
  const items = bounded(query.get('itemsToShow'), 1, 100, DISPLAY_DEFAULTS.itemsToShow);
  const reload = bounded(query.get('reloadInterval'), 10, 600, DISPLAY_DEFAULTS.reloadInterval);
  const expanded = query.get('desc') === 'true';

  if (!boardId)
    return (
      <>
        <PageTitle>Leaderboard Display</PageTitle>
        <Suspense fallback={<SpinnerScreen label="Loading…" />}>
          <DisplayForm />
        </Suspense>
      </>
    );
  const board = boards.data?.find((b) => String(b.id) === boardId);
  // A new lap or a changed board shows at once (the screen follows the change feed).
  return (
    <TvScreen>
      <div className="paddock-tv">
        <PageTitle visuallyHidden>{board ? board.name : 'Leaderboard Display'}</PageTitle>
        {boards.isSuccess && !board && <p>{NO_LAPS_ON_BOARD}</p>}
        {board && (
          <BoardView
            board={board}
            count={items}
            description={expanded ? 'shown' : 'modal'}
            refetchMs={reload * 1000}
          />
        )}
      </div>
    </TvScreen>
  );
}
