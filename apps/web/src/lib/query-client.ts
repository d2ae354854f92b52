import { MutationCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './api-client';

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // Any change that went through may be a staff action the audit trail now shows.
    mutationCache: new MutationCache({
      onSuccess: () => void client.invalidateQueries({ queryKey: ['audit'] }),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again; network blips and 5xx get one more try.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 1,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/** Query keys whose data is the same for everybody; logout keeps them. */
const PUBLIC_ROOTS = new Set(['venue', 'pages']);

export function isPublicQuery(key: QueryKey): boolean {
  return typeof key[0] === 'string' && PUBLIC_ROOTS.has(key[0]);
}

/** Forgets everything tied to the signed-in person (logout clears everything, spec §4). */
export function clearPrivateQueries(client: QueryClient) {
  client.cancelQueries({ predicate: (q) => !isPublicQuery(q.queryKey) });
  client.removeQueries({ predicate: (q) => !isPublicQuery(q.queryKey) });
  client.getMutationCache().clear();
}
