import { PageTitle } from '../../../components/page-title';

/** Daily Planner — spec staff §2 /admin/seats. Navigation and footer only until that work lands. */
export default function DailyPlannerScreen() {
  return <PageTitle visuallyHidden>Daily Planner</PageTitle>;
}
