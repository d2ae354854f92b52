import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import { api } from './api-client';

/** `timezone`: the IANA zone its times are shown in (the API sends it; older callers ignore it). */
export type LocationOption = { id: number; name: string; timezone?: string };

/**
 * `GET /api/locations` for the signup and profile location select. Screens hide the select
 * when this fails or is empty, so the forms never depend on it.
 */
export const locationsQuery = queryOptions({
  queryKey: ['venue', 'locations'],
  queryFn: async () => {
    const answer = await api<Paginated<LocationOption> | LocationOption[]>('/locations', {
      query: { page_size: 100 },
    });
    return Array.isArray(answer) ? answer : answer.results;
  },
  staleTime: 60 * 60_000,
  retry: false,
});
