import { PageTitle } from '../../../components/page-title';

/** Join the Club — spec customer §2 /subscription. Navigation and footer only until that work lands. */
export default function SubscriptionScreen() {
  return <PageTitle visuallyHidden>Join the Club</PageTitle>;
}
