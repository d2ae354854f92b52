import { PageTitle } from '../../../components/page-title';

/** Reservations — spec customer §2 /reservations (screen not shown in the spec). Navigation and footer only until that work lands. */
export default function ReservationsScreen() {
  return <PageTitle visuallyHidden>Reservations</PageTitle>;
}
