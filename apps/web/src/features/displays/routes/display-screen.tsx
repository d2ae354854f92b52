import { PageTitle } from '../../../components/page-title';

/** Leaderboard Display — spec customer §2 /display/:boardId?. Navigation and footer only until that work lands. */
export default function DisplayScreen() {
  return <PageTitle visuallyHidden>Leaderboard Display</PageTitle>;
}
