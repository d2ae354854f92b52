import { queryOptions } from '@tanstack/react-query';
import type {
  CalendarType,
  CalendarTypeCreate,
  CalendarTypeUpdate,
  SeatAdmin,
  SeatCreate,
  SeatUpdate,
} from '@paddock/contract/calendars';
import type { Paginated } from '@paddock/contract/common';
import type {
  Location,
  LocationCreate,
  LocationUpdate,
  SlotPreview,
  SlotPreviewRequest,
} from '@paddock/contract/locations';
import { api } from '../../../lib/api-client';

/** `GET /api/locations`: every location (a venue has a handful; one page of 100). */
export const setupLocationsQuery = queryOptions({
  queryKey: ['venue-setup', 'locations'],
  queryFn: ({ signal }) =>
    api<Paginated<Location>>('/locations', { query: { page_size: 100 }, signal }),
});

/** `POST /api/locations` (locations.change_location). */
export const createLocation = (values: LocationCreate) =>
  api<Location>('/locations', { method: 'POST', body: values });

/** `PATCH /api/locations/{id}` (locations.change_location). */
export const saveLocation = (id: number, values: LocationUpdate) =>
  api<Location>(`/locations/${id}`, { method: 'PATCH', body: values });

/** `POST /api/locations/slot-preview`: the slots these hours open on a date, by the server's rules. */
export const previewSlots = (request: SlotPreviewRequest) =>
  api<SlotPreview>('/locations/slot-preview', { method: 'POST', body: request });

/** `GET /api/caltypes`: every seat type. */
export const seatTypesQuery = queryOptions({
  queryKey: ['venue-setup', 'seat-types'],
  queryFn: ({ signal }) =>
    api<Paginated<CalendarType>>('/caltypes', { query: { page_size: 100 }, signal }),
});

export const createSeatType = (values: CalendarTypeCreate) =>
  api<CalendarType>('/caltypes', { method: 'POST', body: values });

export const saveSeatType = (id: number, values: CalendarTypeUpdate) =>
  api<CalendarType>(`/caltypes/${id}`, { method: 'PATCH', body: values });

/** `GET /api/locations/{id}/seats` (calendars.change_calendar): inactive seats too. */
export const locationSeatsQuery = (locationId: number) =>
  queryOptions({
    queryKey: ['venue-setup', 'seats', locationId],
    queryFn: ({ signal }) => api<SeatAdmin[]>(`/locations/${locationId}/seats`, { signal }),
  });

export const createSeat = (values: SeatCreate) =>
  api<SeatAdmin>('/calendars', { method: 'POST', body: values });

export const saveSeat = (id: number, values: SeatUpdate) =>
  api<SeatAdmin>(`/calendars/${id}`, { method: 'PATCH', body: values });
