import type { ComponentType } from 'react';
import { data, redirect, type LoaderFunctionArgs } from 'react-router';
import type { Permission } from '@paddock/contract/accounts';
import { getSession, hasPermission, isStaff, type Session } from '../lib/auth-store';
import type { PrefetchContext } from '../lib/prefetch-context';
import { pathTo, type RouteName } from '../lib/routes';

/** Who may open a screen (spec customer §2 "Route guards", staff §2). */
export type Access = {
  login?: boolean;
  staff?: boolean;
  permissions?: readonly Permission[];
  /** Superusers only: what no permission grants (backups, decision 0114). */
  superuser?: boolean;
};

export type RouteHandle = {
  name?: RouteName;
  access?: Access;
  /** Spec §2: routes may set a class on <body> (wall displays use it). */
  bodyClass?: string;
  /** A wall screen: the whole page is the screen, with no site navigation or footer. */
  wall?: boolean;
  /** Where a redirect-only route sends everyone (its screen's code can load early). */
  redirectsTo?: string;
  /** The screen's module. */
  load?: () => Promise<ScreenModule>;
  /** The module of what the screen opens with, which can be asked for before it renders. */
  prefetch?: () => Promise<PrefetchModule>;
};

/** A screen's chunk. */
export type ScreenModule = { default: ComponentType };

/**
 * The queries a screen starts with, run beside boot: a module of its own (query definitions
 * only), so the calls do not wait for the screen's code and its imports to arrive and run.
 */
export type PrefetchModule = { prefetch: (at: PrefetchContext) => unknown };

/** Whether a signed-in (or signed-out) visitor holds what `access` asks for. */
export function mayOpen(access: Access | undefined, session: Session | null): boolean {
  if (!access) return true;
  const needsLogin =
    access.login || access.staff || access.superuser || !!access.permissions?.length;
  if (needsLogin && !session) return false;
  if (access.staff && !isStaff(session)) return false;
  if (access.superuser && !session?.permissions?.is_superuser) return false;
  return (access.permissions ?? []).every((permission) => hasPermission(session, permission));
}

/**
 * Where a visitor without a session goes: signup with redirect set to the full path (spec §2).
 * A signed-in user lacking staff status or a permission is not sent anywhere: they stay signed in
 * and see the 403 page (issue 30, decision 0082; the spec sent them to login, which ended the
 * session).
 */
export function accessRedirect(
  access: Access | undefined,
  session: Session | null,
  fullPath: string,
): string | null {
  if (!access || session) return null;
  const needsLogin =
    access.login || access.staff || access.superuser || !!access.permissions?.length;
  return needsLogin ? pathTo('signup', {}, { redirect: fullPath }) : null;
}

/** What the route error boundary receives for a screen the signed-in user may not open. */
export const FORBIDDEN_STATUS = 403;

/** A route loader that enforces `access` before the screen's code even loads. */
export function guardLoader(access: Access) {
  return ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const session = getSession();
    const target = accessRedirect(access, session, `${url.pathname}${url.search}`);
    if (target) throw redirect(target);
    if (!mayOpen(access, session)) throw data(access, { status: FORBIDDEN_STATUS });
    return null;
  };
}
