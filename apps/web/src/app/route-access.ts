import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type Params } from 'react-router';
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
  /** The screen's module. */
  load?: () => Promise<ScreenModule>;
  /** The module of what the screen opens with, which can be asked for before it renders. */
  prefetch?: () => Promise<PrefetchModule>;
};

/** What the first paint of a path can fetch before its screen renders (decision 0061). */
export type PrefetchContext = {
  client: QueryClient;
  params: Params;
  search: URLSearchParams;
  session: Session | null;
};

/** A screen's chunk. */
export type ScreenModule = { default: ComponentType };

/**
 * The queries a screen starts with, run beside boot: a module of its own (query definitions
 * only), so the calls do not wait for the screen's code and its imports to arrive and run.
 */
export type PrefetchModule = { prefetch: (at: PrefetchContext) => unknown };

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
