import type { Permission } from '@paddock/contract/accounts';
import type { RouteName } from '../lib/routes';
import type { Access } from './route-access';

const staffWith = (...permissions: Permission[]): Access => ({
  login: true,
  staff: true,
  permissions,
});

/**
 * Who may open each staff screen: the one place the route guards and the Admin Menu read, so
 * the menu never offers a screen that then answers 403.
 */
export const ADMIN_ACCESS = {
  adminCalendars: staffWith('reservations.change_reservation'),
  adminUser: staffWith('reservations.change_reservation', 'user.change_user'),
  adminLauncher: staffWith('leaderboards.can_manage_race_events'),
  // The seats' bookings and rigs (decision 0127): the planner's permission; Start/End the launcher's.
  adminRigMap: staffWith('reservations.change_reservation'),
  adminParties: staffWith('leaderboards.can_manage_race_events'),
  adminLaps: staffWith('leaderboards.change_board'),
  adminScreens: staffWith('screens.change_screen'),
  // The whole database, secrets' hashes included: superusers only (decision 0114).
  adminBackups: { login: true, staff: true, superuser: true },
  adminAudit: staffWith('audit.view_event'),
  adminSettings: staffWith('venue.change_settings'),
  adminLocations: staffWith('locations.change_location'),
  adminReports: staffWith('reports.view_report'),
  adminStaff: staffWith('user.change_staff'),
  adminPages: staffWith('pages.change_page'),
  adminVouchers: staffWith('vouchers.view_voucher'),
  adminOutbox: staffWith('outbox.view_message'),
} as const satisfies Partial<Record<RouteName, Access>>;

export type AdminScreen = keyof typeof ADMIN_ACCESS;

/** The Admin Menu's entries (staff spec §2), in menu order. */
export const ADMIN_MENU: [AdminScreen, string][] = [
  ['adminCalendars', 'Daily Planner'],
  ['adminLauncher', 'Launcher'],
  ['adminRigMap', 'Rig Map'],
  ['adminParties', 'Parties'],
  ['adminLaps', 'Laps & Leaderboards'],
  ['adminScreens', 'Wall Screens'],
  ['adminAudit', 'Audit Trail'],
  ['adminSettings', 'Venue Settings'],
  ['adminLocations', 'Locations & Seats'],
  ['adminReports', 'Reports'],
  ['adminStaff', 'Staff'],
  ['adminPages', 'Custom Pages'],
  ['adminVouchers', 'Vouchers'],
  ['adminOutbox', 'Outbox'],
  ['adminBackups', 'Backups'],
];
