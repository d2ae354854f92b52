import type { VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../../db/client';
import { getSettings } from '../../plugins/settings';
import { writeSettings } from './venue.repo';

export async function updateSettings(
  db: Db,
  values: Partial<VenueSettings>,
): Promise<VenueSettings> {
  await writeSettings(db, values);
  return getSettings(db);
}
