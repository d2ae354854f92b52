import { DEFAULT_SETTINGS, venueSettings, type VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../../db/client';
import { readSettings, writeSettings } from './venue.repo';

/** Stored settings over the defaults; a stored value that no longer parses falls back to its default. */
export async function getSettings(db: Db): Promise<VenueSettings> {
  const stored = await readSettings(db);
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const [key, value] of Object.entries(stored)) {
    const field = venueSettings.shape[key as keyof VenueSettings];
    if (field && field.safeParse(value).success) merged[key] = value;
  }
  return merged as VenueSettings;
}

export async function updateSettings(
  db: Db,
  values: Partial<VenueSettings>,
): Promise<VenueSettings> {
  await writeSettings(db, values);
  return getSettings(db);
}
