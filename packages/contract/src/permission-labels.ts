import type { Permission } from './accounts';

/**
 * Each permission in words, as staff read it on the staff screen, the 403 page and the audit
 * trail. The server and the API keep the `app.verb_model` strings (DESIGN §3); these are only
 * what people see. A `Record` over `Permission`, so a new permission without words fails typecheck.
 */
export const PERMISSION_LABELS: Record<Permission, string> = {
  'reservations.change_reservation': 'Run the daily planner and change bookings',
  'user.change_user': 'Edit customer accounts',
  'leaderboards.can_manage_race_events': 'Run parties and race events',
  'user.view_user': 'Look up customers',
  'user.change_staff': 'Manage staff and their permissions',
  'vouchers.add_voucher': 'Issue gift vouchers',
  'vouchers.view_voucher': 'See gift vouchers',
  'vouchers.change_voucher': 'Void gift vouchers',
  'locations.change_location': 'Change locations and opening hours',
  'calendars.change_calendar': 'Change seats and seat prices',
  'venue.change_settings': 'Change venue settings',
  'pages.change_page': 'Edit custom pages',
  'outbox.view_message': 'Read the mail outbox',
  'leaderboards.change_board': 'Manage leaderboards, cars and tracks',
  'laps.change_lap': 'Review and import laps',
  'rigs.change_rig': 'Manage rig keys',
  'reports.view_report': 'See reports',
  'screens.change_screen': 'Manage wall screens',
  'audit.view_event': 'See the audit trail',
  'images.add_image': 'Upload images',
};

/** The words for a permission string; an unknown one (from an older record) as it is. */
export function permissionLabel(permission: string): string {
  return (PERMISSION_LABELS as Record<string, string>)[permission] ?? permission;
}
