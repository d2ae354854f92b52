import type { User } from '@paddock/contract/accounts';
import type { users } from '../../db/schema/accounts';
import type { UserBilling } from './user-billing';

export type UserRow = typeof users.$inferSelect;

/** Display name: racer name, else full name, else e-mail (else username). */
export function displayName(row: UserRow): string {
  const fullName = `${row.firstName} ${row.lastName}`.trim();
  return row.racerName || fullName || row.email || row.username;
}

/** Flags are served by this app (flag-icons), so venue screens work offline. */
export function flagUrl(flagCode: string): string {
  return flagCode ? `/flags/4x3/${flagCode}.svg` : '';
}

export function toUserView(row: UserRow, billing: UserBilling): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    location: row.locationId,
    first_name: row.firstName,
    last_name: row.lastName,
    contact_phone: row.contactPhone,
    zip_code: row.zipCode,
    racer_name: row.racerName,
    flag_code: row.flagCode,
    flag_url: flagUrl(row.flagCode),
    social_instagram: row.socialInstagram,
    sim_guid: row.simGuid,
    visit_reminders: row.visitReminders,
    display_name: displayName(row),
    is_onboarded: row.isOnboarded,
    is_staff: row.isStaff,
    is_superuser: row.isSuperuser,
    ...billing,
  };
}
