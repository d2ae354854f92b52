import { DEFAULT_SETTINGS, venueSettings, type VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../db/client';
import { settings } from '../db/schema/content';

/**
 * Stored venue settings over the defaults; a stored value that no longer parses falls back to
 * its default. Shared here because several features read them (company name in mails, club rules).
 */
export async function getSettings(db: Db): Promise<VenueSettings> {
  const rows = await db.select().from(settings);
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const { key, value } of rows) {
    const field = venueSettings.shape[key as keyof VenueSettings];
    if (field && field.safeParse(value).success) merged[key] = value;
  }
  return merged as VenueSettings;
}
