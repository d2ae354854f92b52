import { Link } from 'react-router';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { useSession } from '../../lib/auth-store';
import { pathTo } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';
import { ADMIN_ACCESS, ADMIN_MENU } from '../admin-screens';
import { mayOpen } from '../route-access';

/**
 * Book Now (spec §2) with the Admin Menu for staff. Its own chunk: the dropdown and Popper are
 * not needed for the first paint (decision 0045); the top bar shows its closed toggle until then.
 */
export default function BookNowMenu({ defaultShow = false }: { defaultShow?: boolean }) {
  const session = useSession();
  const config = useVenueConfig();
  const admin = ADMIN_MENU.filter(([route]) => mayOpen(ADMIN_ACCESS[route], session));
  return (
    <NavDropdown title="Book Now" id="book-now-menu" align="end" defaultShow={defaultShow}>
      {/* A visitor sees free seats first where the venue shows them (decision 0123). */}
      <NavDropdown.Item
        as={Link}
        to={pathTo(!session && config.public_availability ? 'freeSeats' : 'reservationsAdvanced')}
      >
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
