import { queryOptions } from '@tanstack/react-query';
import type { VenueSettings } from '@paddock/contract/venue';
import { api } from '../../../lib/api-client';

/** `GET /api/settings`: every venue setting with its current value. */
export const venueSettingsQuery = queryOptions({
  queryKey: ['venue', 'settings'],
  queryFn: ({ signal }) => api<VenueSettings>('/settings', { signal }),
});

/** `PATCH /api/settings` (venue.change_settings): the changed settings; answers them all. */
export const saveVenueSettings = (changes: Partial<VenueSettings>) =>
  api<VenueSettings>('/settings', { method: 'PATCH', body: changes });
