import { cardQuery } from '../../components/payment-method/card-api';
import { futureReservationsQuery } from '../../features/reservations/api/list-future-reservations';
import { bookingLocationsQuery } from '../../features/reservations/api/list-booking-locations';
import { myWaitlistQuery } from '../../features/refunds/api/list-waitlist';
import type { PrefetchContext } from '../../lib/prefetch-context';

/**
 * /dashboard opens with the saved card (its panels wait for it) and what the panels show first:
 * upcoming reservations, the locations they name, the waitlist (decision 0061).
 */
export function prefetch({ client, session }: PrefetchContext) {
  if (!session) return;
  return Promise.all([
    client.prefetchQuery(cardQuery(session.userId)),
    client.prefetchQuery(futureReservationsQuery),
    client.prefetchQuery(bookingLocationsQuery),
    client.prefetchQuery(myWaitlistQuery),
  ]);
}
