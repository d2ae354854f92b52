import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import { NotFound } from './errors';

/** Runs count + page queries and builds the spec's list shape; a page past the last is a 404. */
export async function paginate<T>(
  query: PaginationQuery,
  count: () => Promise<number>,
  page: (limit: number, offset: number) => Promise<T[]>,
): Promise<Paginated<T>> {
  const total = await count();
  const pageCount = Math.max(1, Math.ceil(total / query.page_size));
  if (query.page > pageCount) throw new NotFound('Invalid page.');
  const results = await page(query.page_size, (query.page - 1) * query.page_size);
  return { count: total, page_count: pageCount, page_size: query.page_size, results };
}
