import { DEFAULT_SETTINGS, venueSettings, type VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../db/client';
import { asc } from 'drizzle-orm';
import { settings } from '../db/schema/content';
import { locations } from '../db/schema/venue';
import type { Queryable } from './payments/charge-card';

/**
 * Stored venue settings over the defaults; a stored value that no longer parses falls back to
 * its default. Shared here because several features read them (company name in mails, club rules).
 */
export async function getSettings(db: Db): Promise<VenueSettings> {
  return mergeSettings(await db.select().from(settings));
}

/** The settings from their stored rows (read by a caller's own statement), over the defaults. */
export function mergeSettings(rows: { key: string; value: unknown }[]): VenueSettings {
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const { key, value } of rows) {
    const field = venueSettings.shape[key as keyof VenueSettings];
    if (field && field.safeParse(value).success) merged[key] = value;
  }
  return merged as VenueSettings;
}

const DEFAULT_TIMEZONE = 'America/Los_Angeles';

/** The venue's own clock (billing dates, the nightly backup): the first location's zone. */
export async function venueTimezone(db: Queryable): Promise<string> {
  const [row] = await db
    .select({ timezone: locations.timezone })
    .from(locations)
    .orderBy(asc(locations.id))
    .limit(1);
  return row?.timezone ?? DEFAULT_TIMEZONE;
}
