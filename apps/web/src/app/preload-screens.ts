import { matchRoutes, type RouteObject } from 'react-router';
import { getSession } from '../lib/auth-store';
import { accessRedirect, type RouteHandle } from './route-access';

/**
 * Starts loading the code of the screens a path opens, while boot's API calls are still out:
 * the router asks for the same modules after boot and finds them loaded, one round trip sooner
 * (decision 0045). Only screens the restored session may open; a redirect-only route preloads
 * where it goes.
 */
export function preloadScreens(routes: RouteObject[], pathname: string) {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const handle = route.handle as RouteHandle | undefined;
    if (handle?.redirectsTo) {
      preloadScreens(routes, handle.redirectsTo);
      continue;
    }
    if (typeof route.lazy !== 'function' || accessRedirect(handle?.access, getSession(), pathname))
      continue;
    void (route.lazy as () => Promise<unknown>)().catch(() => undefined);
  }
}
