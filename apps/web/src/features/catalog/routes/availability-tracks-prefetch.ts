import type { PrefetchContext } from '../../../app/route-access';
import { tracksQuery } from '../api/catalog-queries';

/** The Tracks tab opens with the first page, unfiltered (decision 0061). */
export function prefetch({ client }: PrefetchContext) {
  return client.prefetchQuery(tracksQuery('', 1));
}
