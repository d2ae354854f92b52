import { PageTitle } from '../../../components/page-title';

/** Leaderboards — spec customer §2 /leaderboards/:id?. Navigation and footer only until that work lands. */
export default function LeaderboardsScreen() {
  return <PageTitle visuallyHidden>Leaderboards</PageTitle>;
}
