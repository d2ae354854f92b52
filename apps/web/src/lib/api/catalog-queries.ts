import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Car, Group, Track } from '@paddock/contract/laps';
import { api } from '../api-client';

/** `GET /api/groups`: racing groups (GT3, GT4 …), for filters and badges. */
export const groupsQuery = () =>
  queryOptions({
    queryKey: ['groups'],
    queryFn: () => api<Group[]>('/groups', { auth: false }),
    staleTime: 3_600_000,
  });

/** `GET /api/tracks`: by popularity when the search is empty. */
export const tracksQuery = (search: string, page = 1, pageSize = 25) =>
  queryOptions({
    queryKey: ['tracks', search, page, pageSize],
    queryFn: () =>
      api<Paginated<Track>>('/tracks', {
        auth: false,
        query: { search: search || undefined, page, page_size: pageSize },
      }),
    placeholderData: keepPreviousData,
  });

/** `GET /api/cars`: `group` narrows to one racing group. */
export const carsQuery = (search: string, group: number | null, page = 1) =>
  queryOptions({
    queryKey: ['cars', search, group, page],
    queryFn: () =>
      api<Paginated<Car>>('/cars', {
        auth: false,
        query: { search: search || undefined, groups: group ?? undefined, page, page_size: 25 },
      }),
    placeholderData: keepPreviousData,
  });
