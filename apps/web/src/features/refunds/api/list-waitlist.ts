import { queryOptions } from '@tanstack/react-query';
import type { WaitlistEntry } from '@paddock/contract/refunds';
import { api } from '../../../lib/api-client';

/** `GET /api/waitlist`: the caller's own upcoming waitlist entries, soonest first. */
export const myWaitlistQuery = queryOptions({
  queryKey: ['waitlist'],
  queryFn: ({ signal }) => api<WaitlistEntry[]>('/waitlist', { signal }),
});
