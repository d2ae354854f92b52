import { Outlet } from 'react-router';
import { PageTitle } from '../../../components/page-title';

/** Cars & Tracks — spec customer §2 /availability (tabs: cars, tracks). Navigation and footer only until that work lands; the tabs render below. */
export default function AvailabilityScreen() {
  return (
    <>
      <PageTitle visuallyHidden>Cars & Tracks</PageTitle>
      <Outlet />
    </>
  );
}
