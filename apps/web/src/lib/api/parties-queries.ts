import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Calendar } from '@paddock/contract/calendars';
import type { Party } from '@paddock/contract/races';
import { api } from '../api-client';
import { useChangeFeed } from '../use-change-feed';

const rows = <T>(answer: T[] | Paginated<T>): T[] =>
  Array.isArray(answer) ? answer : answer.results;

/** `GET /races/parties?location=`: the parties with their members, requests and shared event. */
export const partiesQuery = (location: number | null) =>
  queryOptions({
    queryKey: ['races', 'parties', location],
    queryFn: async () =>
      rows(
        await api<Party[] | Paginated<Party>>('/races/parties', {
          query: { location: location ?? undefined },
        }),
      ),
  });

/** The seats of a location, in the venue's order. */
export const seatsQuery = (location: number | null) =>
  queryOptions({
    queryKey: ['calendars', 'location', location],
    queryFn: async () =>
      rows(
        await api<Paginated<Calendar>>('/calendars', {
          query: { location: location ?? undefined, page_size: 100 },
        }),
      ),
    enabled: location !== null,
  });

/**
 * Parties and the seats' events change on the server too (a party set up for later starts at
 * its time, on whichever instance): follow the parties feed and read them again.
 */
export function useLiveParties() {
  const client = useQueryClient();
  useChangeFeed(
    ['parties'],
    () => {
      void client.invalidateQueries({ queryKey: ['races'] });
      void client.invalidateQueries({ queryKey: ['calendars'] });
    },
    { auth: true },
  );
}
