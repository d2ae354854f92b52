import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches, useSearchParams } from 'react-router';
import { AlertStack } from '../../components/alert-stack';
import { TermsModalsProvider } from '../../components/terms-modals';
import { scrollToHash } from '../../lib/scroll-to-hash';
import type { RouteHandle } from '../route-access';
import { TopNav } from './top-nav';
import { SiteFooter } from './site-footer';
import { useCardSetupReturn } from '../../components/payment-method/use-card-setup-return';

function useBodyClass() {
  const matches = useMatches();
  const bodyClass = [...matches]
    .reverse()
    .map((m) => (m.handle as RouteHandle | undefined)?.bodyClass)
    .find(Boolean);
  useEffect(() => {
    if (!bodyClass) return;
    document.body.classList.add(bodyClass);
    return () => document.body.classList.remove(bodyClass);
  }, [bodyClass]);
}

/** A wall screen (display, welcome, splash) is shown without the site's nav and footer. */
function useWall() {
  return useMatches().some((m) => (m.handle as RouteHandle | undefined)?.wall === true);
}

/**
 * Nav, body and footer around every screen; `?nav=false` hides the top bar (spec §2); a wall
 * screen has neither (issue 41: nothing there to click on a TV).
 */
export function AppLayout() {
  const [params] = useSearchParams();
  const location = useLocation();
  const wall = useWall();
  const showNav = params.get('nav') !== 'false' && !wall;
  useBodyClass();
  useCardSetupReturn();
  useEffect(() => scrollToHash(location.hash), [location.pathname, location.hash]);

  return (
    <TermsModalsProvider>
      <div className="d-flex flex-column min-vh-100">
        {!wall && (
          <a className="visually-hidden-focusable position-absolute p-2 bg-white" href="#main">
            Skip to main content
          </a>
        )}
        {showNav && <TopNav />}
        <AlertStack />
        <main id="main" className="container flex-grow-1 py-4 app-main" tabIndex={-1}>
          <Outlet />
        </main>
        {!wall && <SiteFooter />}
      </div>
      <ScrollRestoration />
    </TermsModalsProvider>
  );
}
