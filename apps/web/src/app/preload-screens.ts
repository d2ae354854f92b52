import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes, type RouteObject } from 'react-router';
import { getSession } from '../lib/auth-store';
import { mayOpen, type RouteHandle } from './route-access';

/**
 * Starts loading the code of the screens a path opens, while boot's API calls are still out:
 * the router asks for the same modules after boot and finds them loaded, one round trip sooner
 * (decision 0045). Beside it, the screen's prefetch module (when it has one) starts the queries
 * the screen opens with, so their answers are in the cache (or on the way) when it first
 * renders instead of being asked for after boot, the router and that render (decision 0061).
 * Only screens the restored session may open; a redirect-only route preloads where it goes.
 */
export function preloadScreens(
  routes: RouteObject[],
  location: { pathname: string; search: string },
  client: QueryClient,
) {
  const { pathname } = location;
  const session = getSession();
  for (const { route, params } of matchRoutes(routes, pathname) ?? []) {
    const handle = route.handle as RouteHandle | undefined;
    if (handle?.redirectsTo) {
      preloadScreens(routes, { pathname: handle.redirectsTo, search: '' }, client);
      continue;
    }
    if (!handle?.load || !mayOpen(handle.access, session)) continue;
    handle.load().catch(() => undefined);
    const search = new URLSearchParams(location.search);
    handle
      .prefetch?.()
      .then(({ prefetch }) => prefetch({ client, params, search, session }))
      .catch(() => undefined);
  }
}
