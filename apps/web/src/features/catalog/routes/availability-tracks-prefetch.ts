import type { PrefetchContext } from '../../../lib/prefetch-context';
import { tracksQuery } from '../../../lib/api/catalog-queries';

/** The Tracks tab opens with the first page, unfiltered (decision 0061). */
export function prefetch({ client }: PrefetchContext) {
  return client.prefetchQuery(tracksQuery('', 1));
}
