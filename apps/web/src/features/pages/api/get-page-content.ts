import { queryOptions } from '@tanstack/react-query';
import type { PageContent } from '@paddock/contract/pages';
import { api } from '../../../lib/api-client';

export function pageContentQuery(id: string) {
  return queryOptions({
    queryKey: ['pages', 'content', id],
    queryFn: () => api<PageContent>(`/pages/${encodeURIComponent(id)}/content`),
  });
}
