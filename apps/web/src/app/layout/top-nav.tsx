import { Link, NavLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { hasPermission, isStaff, useSession } from '../../lib/auth-store';
import { pathTo } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';
import { pagesListQuery } from '../../features/pages/api/list-pages';

const isExternal = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

/**
 * Top bar (spec §2): logged in — Leaderboards, Dashboard, MyLaps, Cars & Tracks, Book Now;
 * logged out — Leaderboards, Cars & Tracks, Log In, Sign Up, Book Now; then the configured
 * links and custom pages with a menu name. Book Now carries the Admin Menu for staff.
 */
export function TopNav() {
  const session = useSession();
  const config = useVenueConfig();
  const pages = useQuery(pagesListQuery);
  const loggedIn = !!session;
  const canPlan = isStaff(session) && hasPermission(session, 'reservations.change_reservation');
  const canKeepBoards = isStaff(session) && hasPermission(session, 'leaderboards.change_board');
  const canRunScreens = isStaff(session) && hasPermission(session, 'screens.change_screen');
  const canAudit = isStaff(session) && hasPermission(session, 'audit.view_event');
  const canConfigure = isStaff(session) && hasPermission(session, 'venue.change_settings');
  const canSetUpLocations = isStaff(session) && hasPermission(session, 'locations.change_location');
  const canReport = isStaff(session) && hasPermission(session, 'reports.view_report');
  const canManageStaff = isStaff(session) && hasPermission(session, 'user.change_staff');
  const canEditPages = isStaff(session) && hasPermission(session, 'pages.change_page');
  const canSeeVouchers = isStaff(session) && hasPermission(session, 'vouchers.view_voucher');
  const canLaunch =
    isStaff(session) && hasPermission(session, 'leaderboards.can_manage_race_events');
  // In the server's order: menu order, then id.
  const menuPages = (pages.data ?? []).filter((p) => p.menu_name.trim() !== '');

  const brandContent = config.logo_url ? (
    <img src={config.logo_url} alt={config.company_name} height={40} />
  ) : (
    config.company_name
  );

  return (
    <Navbar expand="lg" bg="dark" data-bs-theme="dark" as="header" role="banner">
      <Container>
        {config.marketing_url ? (
          <Navbar.Brand href={config.marketing_url}>{brandContent}</Navbar.Brand>
        ) : (
          <Navbar.Brand as={Link} to={pathTo('home')}>
            {brandContent}
          </Navbar.Brand>
        )}
        <Navbar.Toggle aria-controls="paddock-nav" aria-label="Toggle navigation" />
        <Navbar.Collapse id="paddock-nav">
          <Nav as="nav" aria-label="Main" className="ms-auto align-items-lg-center">
            <Nav.Link as={NavLink} to={pathTo('leaderboards')}>
              Leaderboards
            </Nav.Link>
            {loggedIn && (
              <>
                <Nav.Link as={NavLink} to={pathTo('dashboard')}>
                  Dashboard
                </Nav.Link>
                <Nav.Link as={NavLink} to={pathTo('laps')}>
                  MyLaps
                </Nav.Link>
              </>
            )}
            <Nav.Link as={NavLink} to={pathTo('availability')}>
              Cars &amp; Tracks
            </Nav.Link>
            {!loggedIn && (
              <>
                <Nav.Link as={NavLink} to={pathTo('login')}>
                  Log In
                </Nav.Link>
                <Nav.Link as={NavLink} to={pathTo('signup')}>
                  Sign Up
                </Nav.Link>
              </>
            )}
            {config.nav_links.map((link) =>
              isExternal(link.url) ? (
                <Nav.Link key={`${link.label}-${link.url}`} href={link.url}>
                  {link.label}
                </Nav.Link>
              ) : (
                <Nav.Link key={`${link.label}-${link.url}`} as={NavLink} to={link.url}>
                  {link.label}
                </Nav.Link>
              ),
            )}
            {menuPages.map((p) => (
              <Nav.Link key={p.id} as={NavLink} to={pathTo('customPageView', { id: p.id })}>
                {p.menu_name}
              </Nav.Link>
            ))}
            <NavDropdown title="Book Now" id="book-now-menu" align="end">
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
              {(canPlan ||
                canLaunch ||
                canKeepBoards ||
                canRunScreens ||
                canAudit ||
                canConfigure ||
                canSetUpLocations ||
                canReport ||
                canManageStaff ||
                canEditPages ||
                canSeeVouchers) && (
                <>
                  <NavDropdown.Divider />
                  <NavDropdown.Header>Admin Menu</NavDropdown.Header>
                  {canPlan && (
                    <NavDropdown.Item as={Link} to={pathTo('adminCalendars')}>
                      Daily Planner
                    </NavDropdown.Item>
                  )}
                  {canLaunch && (
                    <NavDropdown.Item as={Link} to={pathTo('adminLauncher')}>
                      Launcher
                    </NavDropdown.Item>
                  )}
                  {canLaunch && (
                    <NavDropdown.Item as={Link} to={pathTo('adminParties')}>
                      Parties
                    </NavDropdown.Item>
                  )}
                  {canKeepBoards && (
                    <NavDropdown.Item as={Link} to={pathTo('adminLaps')}>
                      Laps &amp; Leaderboards
                    </NavDropdown.Item>
                  )}
                  {canRunScreens && (
                    <NavDropdown.Item as={Link} to={pathTo('adminScreens')}>
                      Wall Screens
                    </NavDropdown.Item>
                  )}
                  {canAudit && (
                    <NavDropdown.Item as={Link} to={pathTo('adminAudit')}>
                      Audit Trail
                    </NavDropdown.Item>
                  )}
                  {canConfigure && (
                    <NavDropdown.Item as={Link} to={pathTo('adminSettings')}>
                      Venue Settings
                    </NavDropdown.Item>
                  )}
                  {canSetUpLocations && (
                    <NavDropdown.Item as={Link} to={pathTo('adminLocations')}>
                      Locations &amp; Seats
                    </NavDropdown.Item>
                  )}
                  {canReport && (
                    <NavDropdown.Item as={Link} to={pathTo('adminReports')}>
                      Reports
                    </NavDropdown.Item>
                  )}
                  {canManageStaff && (
                    <NavDropdown.Item as={Link} to={pathTo('adminStaff')}>
                      Staff
                    </NavDropdown.Item>
                  )}
                  {canEditPages && (
                    <NavDropdown.Item as={Link} to={pathTo('adminPages')}>
                      Custom Pages
                    </NavDropdown.Item>
                  )}
                  {canSeeVouchers && (
                    <NavDropdown.Item as={Link} to={pathTo('adminVouchers')}>
                      Vouchers
                    </NavDropdown.Item>
                  )}
                </>
              )}
            </NavDropdown>
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
