import { PageTitle } from '../../../components/page-title';

/** Add Subscription — spec staff §2 /subscription/add (nav and footer only, no body). Navigation and footer only until that work lands. */
export default function AddSubscriptionScreen() {
  return <PageTitle visuallyHidden>Add Subscription</PageTitle>;
}
