import { queryOptions } from '@tanstack/react-query';
import type { PageDetail, PagePreview, PageUpdate, PageWrite } from '@paddock/contract/pages';
import { api } from '../../../lib/api-client';

/** `GET /api/pages/{id}`: one page with its stored HTML, to edit. */
export const pageDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['pages-admin', 'detail', id],
    queryFn: ({ signal }) => api<PageDetail>(`/pages/${id}`, { signal }),
  });

/** `POST /api/pages` (pages.change_page). */
export const createPage = (values: PageWrite) =>
  api<PageDetail>('/pages', { method: 'POST', body: values });

/** `PATCH /api/pages/{id}` (pages.change_page). */
export const savePage = (id: number, values: PageUpdate) =>
  api<PageDetail>(`/pages/${id}`, { method: 'PATCH', body: values });

/** `DELETE /api/pages/{id}` (pages.change_page). */
export const deletePage = (id: number) => api<void>(`/pages/${id}`, { method: 'DELETE' });

/** `POST /api/pages/preview`: the HTML as the server would store and serve it. */
export const previewPageQuery = (content: string) =>
  queryOptions({
    queryKey: ['pages-admin', 'preview', content],
    queryFn: ({ signal }) =>
      api<PagePreview>('/pages/preview', { method: 'POST', body: { content }, signal }),
    staleTime: Infinity,
  });
