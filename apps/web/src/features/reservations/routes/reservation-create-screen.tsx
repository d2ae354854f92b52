import { PageTitle } from '../../../components/page-title';

/** Reservations — spec customer §2 /reservations/:calendar. Navigation and footer only until that work lands. */
export default function ReservationCreateScreen() {
  return <PageTitle visuallyHidden>Reservations</PageTitle>;
}
