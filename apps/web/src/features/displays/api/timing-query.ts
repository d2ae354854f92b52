import { queryOptions } from '@tanstack/react-query';
import type { TimingAnswer } from '@paddock/contract/live-timing';
import { api } from '../../../lib/api-client';

/** An event's live timing tower (public): refetched when the change feed says `timing`. */
export const timingQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['timing', eventId],
    queryFn: () => api<TimingAnswer>(`/races/events/${eventId}/timing`, { auth: false }),
  });
