import { useMemo, useState, type ReactNode } from 'react';
import NavbarContext from 'react-bootstrap/NavbarContext';
import { useLocation } from 'react-router';

/**
 * react-bootstrap's `Navbar` as the top bar uses it (`expand`, `bg`, rendered as `<header>`),
 * without the rest: importing `Navbar` brings its Offcanvas and the Modal under it onto every
 * page's first paint (decision 0045). The classes and the context are Navbar's own, so
 * `NavbarBrand`, `NavbarToggle`, `NavbarCollapse` and `Nav` behave as they do inside it.
 */
export function AppNavbar({
  expand,
  bg,
  children,
}: {
  expand: 'sm' | 'md' | 'lg' | 'xl' | 'xxl';
  bg: string;
  children: ReactNode;
}) {
  // The collapsed menu is open for the page it was opened on: choosing an entry (any
  // navigation) closes it, so on a tablet or phone it no longer covers the screen chosen.
  const { key } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const expanded = openOn === key;
  const context = useMemo(
    () => ({
      onToggle: () => setOpenOn((on) => (on === key ? null : key)),
      bsPrefix: 'navbar',
      expanded,
      expand,
    }),
    [expanded, expand, key],
  );
  return (
    <NavbarContext.Provider value={context}>
      <header
        className={`navbar navbar-expand-${expand} navbar-light bg-${bg}`}
        data-bs-theme="dark"
        role="banner"
      >
        {children}
      </header>
    </NavbarContext.Provider>
  );
}
