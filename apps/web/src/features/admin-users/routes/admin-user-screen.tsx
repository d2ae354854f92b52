import { PageTitle } from '../../../components/page-title';

/** User — spec staff §2 /admin/user/:userId. Navigation and footer only until that work lands. */
export default function AdminUserScreen() {
  return <PageTitle visuallyHidden>User</PageTitle>;
}
