import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavbarBrand from 'react-bootstrap/NavbarBrand';
import NavbarCollapse from 'react-bootstrap/NavbarCollapse';
import NavbarToggle from 'react-bootstrap/NavbarToggle';
import { useSession } from '../../lib/auth-store';
import { pathTo } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';
import { pagesListQuery } from '../../features/pages/api/list-pages';
import { AppNavbar } from './app-navbar';

// The dropdown (and Popper under it) loads beside the first paint, not in it (decision 0045).
const BookNowMenu = lazy(() => import('./book-now-menu'));

/** The closed Book Now menu's own markup, shown until its code is there; a click opens the menu when it is. */
function BookNowToggle({ onOpen }: { onOpen: () => void }) {
  return (
    <div className="nav-item dropdown">
      <a
        id="book-now-menu"
        aria-expanded="false"
        role="button"
        className="dropdown-toggle nav-link"
        tabIndex={0}
        href="#"
        onClick={(e) => {
          e.preventDefault();
          onOpen();
        }}
      >
        Book Now
      </a>
    </div>
  );
}

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
  const [openWhenLoaded, setOpenWhenLoaded] = useState(false);
  // In the server's order: menu order, then id.
  const menuPages = (pages.data ?? []).filter((p) => p.menu_name.trim() !== '');

  const brandContent = config.logo_url ? (
    <img src={config.logo_url} alt={config.company_name} height={40} />
  ) : (
    config.company_name
  );

  return (
    <AppNavbar expand="lg" bg="dark">
      <Container>
        {config.marketing_url ? (
          <NavbarBrand href={config.marketing_url}>{brandContent}</NavbarBrand>
        ) : (
          <NavbarBrand as={Link} to={pathTo('home')}>
            {brandContent}
          </NavbarBrand>
        )}
        <NavbarToggle aria-controls="paddock-nav" aria-label="Toggle navigation" />
        <NavbarCollapse id="paddock-nav">
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
            <Suspense fallback={<BookNowToggle onOpen={() => setOpenWhenLoaded(true)} />}>
              <BookNowMenu defaultShow={openWhenLoaded} />
            </Suspense>
          </Nav>
        </NavbarCollapse>
      </Container>
    </AppNavbar>
  );
}
