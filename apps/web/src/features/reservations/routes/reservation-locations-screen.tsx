import { PageTitle } from '../../../components/page-title';

/** Book a Simulator — spec customer §2 /reservations/all (location picker). Navigation and footer only until that work lands. */
export default function ReservationLocationsScreen() {
  return <PageTitle visuallyHidden>Book a Simulator</PageTitle>;
}
