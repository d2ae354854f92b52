import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { Permission } from '@paddock/contract/accounts';
import { getSession, hasPermission, isStaff, type Session } from '../lib/auth-store';
import { pathTo, type RouteName } from '../lib/routes';

/** Who may open a screen (spec customer §2 "Route guards", staff §2). */
export type Access = {
  login?: boolean;
  staff?: boolean;
  permissions?: readonly Permission[];
};

export type RouteHandle = {
  name?: RouteName;
  access?: Access;
  /** Spec §2: routes may set a class on <body> (wall displays use it). */
  bodyClass?: string;
  /** Where a redirect-only route sends everyone (its screen's code can load early). */
  redirectsTo?: string;
};

/**
 * Where a visitor without the access goes, or null when they may stay:
 * no token → signup with redirect set to the full path; missing staff status or a
 * permission → login (with the same redirect, so a staff member can sign in and come back).
 */
export function accessRedirect(
  access: Access | undefined,
  session: Session | null,
  fullPath: string,
): string | null {
  if (!access) return null;
  const needsLogin = access.login || access.staff || !!access.permissions?.length;
  if (needsLogin && !session) return pathTo('signup', {}, { redirect: fullPath });
  if (access.staff && !isStaff(session)) return pathTo('login', {}, { redirect: fullPath });
  for (const permission of access.permissions ?? []) {
    if (!hasPermission(session, permission)) return pathTo('login', {}, { redirect: fullPath });
  }
  return null;
}

/** A route loader that enforces `access` before the screen's code even loads. */
export function guardLoader(access: Access) {
  return ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const target = accessRedirect(access, getSession(), `${url.pathname}${url.search}`);
    if (target) throw redirect(target);
    return null;
  };
}
