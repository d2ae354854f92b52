import { Link } from 'react-router';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { hasPermission, isStaff, useSession } from '../../lib/auth-store';
import { pathTo, type RouteName } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';
import type { Permission } from '@paddock/contract/accounts';

/** The Admin Menu's entries (staff spec §2), each shown to staff holding its permission. */
const ADMIN_ENTRIES: [RouteName, string, Permission][] = [
  ['adminCalendars', 'Daily Planner', 'reservations.change_reservation'],
  ['adminLauncher', 'Launcher', 'leaderboards.can_manage_race_events'],
  ['adminParties', 'Parties', 'leaderboards.can_manage_race_events'],
  ['adminLaps', 'Laps & Leaderboards', 'leaderboards.change_board'],
  ['adminScreens', 'Wall Screens', 'screens.change_screen'],
  ['adminAudit', 'Audit Trail', 'audit.view_event'],
  ['adminSettings', 'Venue Settings', 'venue.change_settings'],
  ['adminLocations', 'Locations & Seats', 'locations.change_location'],
  ['adminReports', 'Reports', 'reports.view_report'],
  ['adminStaff', 'Staff', 'user.change_staff'],
  ['adminPages', 'Custom Pages', 'pages.change_page'],
  ['adminVouchers', 'Vouchers', 'vouchers.view_voucher'],
  ['adminBackups', 'Backups', 'backups.view_backup'],
];

/**
 * Book Now (spec §2) with the Admin Menu for staff. Its own chunk: the dropdown and Popper are
 * not needed for the first paint (decision 0045); the top bar shows its closed toggle until then.
 */
export default function BookNowMenu({ defaultShow = false }: { defaultShow?: boolean }) {
  const session = useSession();
  const config = useVenueConfig();
  const admin = isStaff(session)
    ? ADMIN_ENTRIES.filter(([, , permission]) => hasPermission(session, permission))
    : [];
  return (
    <NavDropdown title="Book Now" id="book-now-menu" align="end" defaultShow={defaultShow}>
      <NavDropdown.Item as={Link} to={pathTo('reservationsAdvanced')}>
        Book a Simulator
      </NavDropdown.Item>
      <NavDropdown.Item as={Link} to={pathTo('purchaseVoucher')}>
        Purchase Gift Voucher
      </NavDropdown.Item>
      {config.club_enabled && (
        <NavDropdown.Item as={Link} to={pathTo('subscription')}>
          Join the {config.club_name}
        </NavDropdown.Item>
      )}
      {admin.length > 0 && (
        <>
          <NavDropdown.Divider />
          <NavDropdown.Header>Admin Menu</NavDropdown.Header>
          {admin.map(([route, label]) => (
            <NavDropdown.Item key={route} as={Link} to={pathTo(route)}>
              {label}
            </NavDropdown.Item>
          ))}
        </>
      )}
    </NavDropdown>
  );
}
