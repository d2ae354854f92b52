import type { PrefetchContext } from '../../../lib/prefetch-context';
import { todayIn } from '../../../lib/slot-format';
import { nearestLocationQuery } from '../api/get-nearest-location';
import { seatAvailabilityQuery } from '../api/get-seat-availability';
import { bookingLocationsQuery } from '../api/list-booking-locations';
import { calendarTypesQuery } from '../api/list-calendar-types';
import { calendarsQuery } from '../api/list-calendars';
import { OPENING_SEARCH, parallelQuery } from '../api/search-parallel';

/**
 * What /reservations/all opens with (decision 0061): the locations, the customer's nearest one
 * (unless the link names one), the simulator types; then that location's seats, the group
 * search of the opening search today, and each seat's slots. The screen's own queries, so it
 * finds their answers in the cache; the location is chosen as the screen chooses it.
 */
export async function prefetch({ client, search, session }: PrefetchContext) {
  if (!session) return;
  const queryLocation = Number(search.get('location')) || undefined;
  void client.prefetchQuery(calendarTypesQuery);
  const [list, nearest] = await Promise.all([
    client.fetchQuery(bookingLocationsQuery),
    queryLocation === undefined ? client.fetchQuery(nearestLocationQuery(session.userId)) : null,
  ]);
  const location =
    list.find((l) => l.id === queryLocation) ?? list.find((l) => l.id === nearest?.id) ?? list[0];
  if (!location) return;
  const date = todayIn(location.timezone);
  void client.prefetchQuery(
    parallelQuery({
      ...OPENING_SEARCH,
      types: [...OPENING_SEARCH.types],
      date,
      location: location.id,
    }),
  );
  const seats = await client.fetchQuery(calendarsQuery(location.id, [...OPENING_SEARCH.types]));
  await Promise.all(seats.map((s) => client.prefetchQuery(seatAvailabilityQuery(s.id, date))));
}
