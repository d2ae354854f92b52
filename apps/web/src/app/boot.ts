import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { getSession, restoreSession, setPermissions } from '../lib/auth-store';
import { userQuery } from '../lib/current-user';
import { endSession, fetchPermissions } from '../lib/session';
import { pathTo } from '../lib/routes';
import { venueConfigQuery } from '../lib/venue-config';

/** Screens that end the session themselves; loading it first would only cost a round trip. */
const SESSION_ENDING_PATHS = new Set([pathTo('login'), pathTo('logout')]);

/**
 * App start (spec §4): check the stored token's expiry, load the venue configuration, and for
 * a live token the permissions and the user. A 401 here means the session is no longer
 * accepted: forget it and return where to go (login with code sessionInvalid).
 */
export async function boot(client: QueryClient, location: Location): Promise<string | null> {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const params = new URLSearchParams(location.search);
  // Signup starts a new account unless it resumes a step or keeps the token (see its screen).
  const freshSignup =
    path === pathTo('signup') && !params.has('keepToken') && !Number(params.get('step'));
  const endsSession = SESSION_ENDING_PATHS.has(path) || freshSignup;
  const session = endsSession ? null : restoreSession();
  try {
    await Promise.all([
      client.fetchQuery(venueConfigQuery),
      session &&
        fetchPermissions().then((permissions) => {
          if (getSession()?.userId === session.userId) setPermissions(permissions);
        }),
      session && client.fetchQuery(userQuery(session.userId)),
    ]);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    endSession(client);
    await client.fetchQuery(venueConfigQuery);
    const here = `${location.pathname}${location.search}`;
    return pathTo('login', {}, { code: 'sessionInvalid', redirect: here });
  }
}
