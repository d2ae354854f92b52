import type { PrefetchContext } from '../../../lib/prefetch-context';
import {
  boardResultsQuery,
  boardsQuery,
  LEADERBOARD_ENTRIES,
  pointsQuery,
} from '../../../lib/api/boards-queries';

/** /leaderboards/:id? opens with the list, then the board it shows (decision 0061). */
export async function prefetch({ client, params }: PrefetchContext) {
  const list = await client.fetchQuery(boardsQuery());
  const board = list.find((b) => String(b.id) === params.id) ?? list[0];
  if (!board) return;
  if (board.calculation === 'TIME')
    await client.prefetchQuery(boardResultsQuery(board.id, LEADERBOARD_ENTRIES));
  else await client.prefetchQuery(pointsQuery(board.id, LEADERBOARD_ENTRIES));
}
