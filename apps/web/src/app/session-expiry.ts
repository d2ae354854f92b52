import type { QueryClient } from '@tanstack/react-query';
import type { DataRouter } from 'react-router';
import { setTokenInvalidHandler } from '../lib/api-client';
import { getSession } from '../lib/auth-store';
import { endSession } from '../lib/session';
import { pathTo } from '../lib/routes';

/**
 * Spec §8: a token_not_valid answer, or a 401 while loading the user, ends the session and
 * goes to login with errorCode tokenExpired, keeping the place to come back to.
 */
export function watchSessionExpiry(router: DataRouter, client: QueryClient): () => void {
  return setTokenInvalidHandler(() => {
    if (!getSession()) return;
    endSession(client);
    const { pathname, search } = router.state.location;
    if (pathname === pathTo('login')) return;
    void router.navigate(
      pathTo('login', {}, { errorCode: 'tokenExpired', redirect: `${pathname}${search}` }),
      { replace: true },
    );
  });
}
