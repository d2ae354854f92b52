import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';
import type { Session } from './auth-store';

/** What the first paint of a path can fetch before its screen renders (decision 0061). */
export type PrefetchContext = {
  client: QueryClient;
  params: Params;
  search: URLSearchParams;
  session: Session | null;
};
