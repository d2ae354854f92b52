import { PageTitle } from '../../../components/page-title';

/** Parties — spec staff §2 party admin page (/admin/parties). Navigation and footer only until that work lands. */
export default function PartyAdminScreen() {
  return <PageTitle visuallyHidden>Parties</PageTitle>;
}
