import type { VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../../db/client';
import { getSettings } from '../../plugins/settings';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { recordAudit } from '../audit/audit.service';
import { writeSettings } from './venue.repo';

/** Saves the given settings, tells the screens, and keeps the change in the audit trail. */
export async function updateSettings(
  db: Db,
  caller: AuthUser,
  values: Partial<VenueSettings>,
): Promise<VenueSettings> {
  const changed = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  // An empty PATCH changes nothing, so nobody needs to hear about it.
  if (Object.keys(changed).length === 0) return getSettings(db);
  const before = await getSettings(db);
  await db.transaction(async (tx) => {
    await writeSettings(tx, changed);
    await publishChange(tx, 'settings');
    await recordAudit(tx, caller, {
      action: 'settings.update',
      targetType: 'settings',
      before: Object.fromEntries(
        Object.keys(changed).map((k) => [k, before[k as keyof VenueSettings]]),
      ),
      after: changed,
    });
  });
  return getSettings(db);
}
