import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { boardsQuery, LEADERBOARD_ENTRIES as ENTRIES } from '../../../lib/api/boards-queries';
import { BoardView, NO_LAPS_ON_BOARD } from '../../../components/leaderboard/board-view';

/** Leaderboards — spec customer §2 /leaderboards/:id?: the list on the left, one board shown. */
export default function LeaderboardsScreen() {
  const { id } = useParams();
  const boards = useQuery(boardsQuery());
  const list = boards.data ?? [];
  const selected = list.find((b) => String(b.id) === id) ?? list[0];
  return (
    <>
      <PageTitle>Leaderboards</PageTitle>
      {boards.isPending ? (
        <SpinnerScreen label="Loading leaderboards…" />
      ) : boards.isError ? (
        <p className="text-danger">{errorMessage(boards.error)}</p>
      ) : list.length === 0 ? (
        <p>{NO_LAPS_ON_BOARD}</p>
      ) : (
        <div className="row g-4">
          <nav className="col-12 col-lg-3" aria-label="Leaderboards">
            {/* ListGroup's markup: react-bootstrap's ListGroup is a Nav underneath (decision 0048). */}
            <div className="list-group">
              {list.map((b) => (
                <Link
                  key={b.id}
                  to={pathTo('leaderboards', { id: b.id })}
                  className={`list-group-item list-group-item-action${b.id === selected?.id ? ' active' : ''}`}
                  aria-current={b.id === selected?.id ? 'page' : undefined}
                >
                  {b.name}
                </Link>
              ))}
            </div>
          </nav>
          <div className="col-12 col-lg-9">
            {selected && (
              <BoardView key={selected.id} board={selected} count={ENTRIES} filterable />
            )}
          </div>
        </div>
      )}
    </>
  );
}
