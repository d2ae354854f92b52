import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import { NotFound } from './errors';

/**
 * Runs the count and page queries and builds the spec's list shape; a page past the last is a
 * 404. The first page (most calls: dashboards, searches, the audit trail) runs both together: on
 * a chain's tables each takes tens of ms, and the answer then waits for the slower, not their sum
 * (issue 33). A later page is counted first, so a page far past the last never makes the
 * database walk a whole table to skip its offset.
 */
export async function paginate<T>(
  query: PaginationQuery,
  count: () => Promise<number>,
  page: (limit: number, offset: number) => Promise<T[]>,
): Promise<Paginated<T>> {
  const pageCount = (total: number) => Math.max(1, Math.ceil(total / query.page_size));
  const read = () => page(query.page_size, (query.page - 1) * query.page_size);
  const [total, results] =
    query.page === 1
      ? await Promise.all([count(), read()])
      : await count().then(async (n) => {
          if (query.page > pageCount(n)) throw new NotFound('Invalid page.');
          return [n, await read()] as const;
        });
  return { count: total, page_count: pageCount(total), page_size: query.page_size, results };
}
