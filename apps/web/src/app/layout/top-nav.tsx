import { lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import NavbarContext from 'react-bootstrap/NavbarContext';
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

/**
 * The phone's menu button and the part it opens, as react-bootstrap's `NavbarToggle` and
 * `NavbarCollapse` render them but without Collapse's height transition (react-transition-group
 * and dom-helpers on every first paint, decision 0048): the menu opens and closes at once.
 */
function NavToggle() {
  const navbar = useContext(NavbarContext);
  return (
    <button
      type="button"
      className={`navbar-toggler${navbar?.expanded ? '' : ' collapsed'}`}
      aria-controls="paddock-nav"
      aria-expanded={!!navbar?.expanded}
      aria-label="Toggle navigation"
      onClick={() => navbar?.onToggle()}
    >
      <span className="navbar-toggler-icon" />
    </button>
  );
}

function NavCollapse({ children }: { children: ReactNode }) {
  const navbar = useContext(NavbarContext);
  return (
    <div id="paddock-nav" className={`navbar-collapse collapse${navbar?.expanded ? ' show' : ''}`}>
      {children}
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
      <div className="container">
        {config.marketing_url ? (
          <a className="navbar-brand" href={config.marketing_url}>
            {brandContent}
          </a>
        ) : (
          <Link className="navbar-brand" to={pathTo('home')}>
            {brandContent}
          </Link>
        )}
        <NavToggle />
        <NavCollapse>
          <nav aria-label="Main" className="navbar-nav ms-auto align-items-lg-center">
            <NavLink className="nav-link" to={pathTo('leaderboards')}>
              Leaderboards
            </NavLink>
            {loggedIn && (
              <>
                <NavLink className="nav-link" to={pathTo('dashboard')}>
                  Dashboard
                </NavLink>
                <NavLink className="nav-link" to={pathTo('laps')}>
                  MyLaps
                </NavLink>
              </>
            )}
            <NavLink className="nav-link" to={pathTo('availability')}>
              Cars &amp; Tracks
            </NavLink>
            {!loggedIn && (
              <>
                <NavLink className="nav-link" to={pathTo('login')}>
                  Log In
                </NavLink>
                <NavLink className="nav-link" to={pathTo('signup')}>
                  Sign Up
                </NavLink>
              </>
            )}
            {config.nav_links.map((link) =>
              isExternal(link.url) ? (
                <a key={`${link.label}-${link.url}`} className="nav-link" href={link.url}>
                  {link.label}
                </a>
              ) : (
                <NavLink key={`${link.label}-${link.url}`} className="nav-link" to={link.url}>
                  {link.label}
                </NavLink>
              ),
            )}
            {menuPages.map((p) => (
              <NavLink key={p.id} className="nav-link" to={pathTo('customPageView', { id: p.id })}>
                {p.menu_name}
              </NavLink>
            ))}
            <Suspense fallback={<BookNowToggle onOpen={() => setOpenWhenLoaded(true)} />}>
              <BookNowMenu defaultShow={openWhenLoaded} />
            </Suspense>
          </nav>
        </NavCollapse>
      </div>
    </AppNavbar>
  );
}
