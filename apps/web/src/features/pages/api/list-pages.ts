import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Page } from '@paddock/contract/pages';
import { api } from '../../../lib/api-client';

/** `GET /api/pages`: custom pages are few, so one page of 100 holds them all. */
export const pagesListQuery = queryOptions({
  queryKey: ['pages', 'list'],
  queryFn: async () => {
    const answer = await api<Paginated<Page>>('/pages', { query: { page_size: 100 } });
    return answer.results;
  },
  staleTime: 5 * 60_000,
});
