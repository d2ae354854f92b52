import { useQuery } from '@tanstack/react-query';
import type { Location } from '@paddock/contract/locations';
import { bookingLocationsQuery } from '../api/list-booking-locations';
import { futureReservationsQuery } from '../api/list-future-reservations';

/** The caller's upcoming bookings, with the locations they are at (for names and addresses). */
export function useUpcomingReservations() {
  const reservations = useQuery(futureReservationsQuery);
  const locations = useQuery(bookingLocationsQuery);
  const byId = new Map<number, Location>((locations.data ?? []).map((l) => [l.id, l]));
  return { reservations, locationOf: (id: number) => byId.get(id) };
}
