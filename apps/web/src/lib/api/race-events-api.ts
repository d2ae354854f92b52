import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Car, Track } from '@paddock/contract/laps';
import type {
  Driver,
  Preset,
  PresetCreate,
  RaceEvent,
  RaceEventUpdate,
  SignalResult,
  SignalWrite,
  Skin,
} from '@paddock/contract/races';
import { api } from '../api-client';

/** A list call may answer a bare array or a page; screens want the rows. */
export const rows = <T>(answer: T[] | Paginated<T>): T[] =>
  Array.isArray(answer) ? answer : answer.results;

export const eventQuery = (id: number) =>
  queryOptions({
    queryKey: ['races', 'events', id],
    queryFn: () => api<RaceEvent>(`/races/events/${id}`),
  });

export const saveEvent = (id: number, body: RaceEventUpdate) =>
  api<RaceEvent>(`/races/events/${id}`, { method: 'PATCH', body });

/**
 * Spec §4 host signals, to every member seat of the event (SESSION_START may leave some out);
 * the answer names the seats it went to and those with no rig connected (decision 0115).
 */
export const sendSignal = (id: number, body: SignalWrite) =>
  api<SignalResult>(`/races/events/${id}/signal`, { method: 'POST', body });

export const presetsQuery = queryOptions({
  queryKey: ['races', 'presets'],
  queryFn: async () =>
    rows(await api<Preset[] | Paginated<Preset>>('/races/presets', { query: { page_size: 100 } })),
});

export const createPreset = (body: PresetCreate) =>
  api<Preset>('/races/presets', { method: 'POST', body });

/** Events that loaded the preset keep their settings. */
export const deletePreset = (id: number) => api(`/races/presets/${id}`, { method: 'DELETE' });

/** Tracks for the picker: popular ones when the search is empty (spec §7). */
export const searchTracks = async (search: string) =>
  rows(
    await api<Paginated<Track>>('/tracks', {
      auth: false,
      query: { search: search || undefined, page_size: 10 },
    }),
  );

export const searchCars = async (search: string) =>
  rows(
    await api<Paginated<Car>>('/cars', {
      auth: false,
      query: { search: search || undefined, page_size: 10 },
    }),
  );

export const trackQuery = (id: number) =>
  queryOptions({
    queryKey: ['tracks', 'one', id],
    queryFn: () => api<Track>(`/tracks/${id}`, { auth: false }),
    staleTime: 600_000,
  });

export const carQuery = (id: number) =>
  queryOptions({
    queryKey: ['cars', 'one', id],
    queryFn: () => api<Car>(`/cars/${id}`, { auth: false }),
    staleTime: 600_000,
  });

export const skinsQuery = (car: number) =>
  queryOptions({
    queryKey: ['skins', car],
    queryFn: async () =>
      rows(await api<Paginated<Skin>>('/skins', { query: { car, page_size: 100 } })),
    staleTime: 600_000,
  });

/** People to put in a seat (spec §7 users search, by name, racer name or e-mail). */
export const searchDrivers = (search: string) =>
  api<Driver[]>('/races/drivers', { query: { search: search || undefined } });

/** Drivers already seen in a search, so a chosen one shows by name. */
export const driverKey = (id: number) => ['races', 'driver', id] as const;
