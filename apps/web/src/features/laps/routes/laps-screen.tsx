import { PageTitle } from '../../../components/page-title';

/** My Laps — spec customer §2 /laps. Navigation and footer only until that work lands. */
export default function LapsScreen() {
  return <PageTitle visuallyHidden>My Laps</PageTitle>;
}
