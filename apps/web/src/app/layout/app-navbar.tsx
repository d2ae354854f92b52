import { useMemo, useState, type ReactNode } from 'react';
import NavbarContext from 'react-bootstrap/NavbarContext';

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
  const [expanded, setExpanded] = useState(false);
  const context = useMemo(
    () => ({ onToggle: () => setExpanded((e) => !e), bsPrefix: 'navbar', expanded, expand }),
    [expanded, expand],
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
