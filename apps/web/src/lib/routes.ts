/**
 * Named routes (spec customer §2 and staff §2): links use names so a path is written once.
 * The route table in app/router.tsx uses the same patterns.
 */
export const routePatterns = {
  home: '/',
  dashboard: '/dashboard',
  subscription: '/subscription',
  addSubscription: '/subscription/add',
  enrolmentAuthenticated: '/subscriptions/:id/authenticated',
  laps: '/laps',
  availability: '/availability',
  availabilityCars: '/availability/cars',
  availabilityTracks: '/availability/tracks',
  leaderboards: '/leaderboards/:id?',
  welcome: '/welcome',
  splash: '/splash',
  display: '/display/:boardId?',
  rigScreen: '/rig',
  // Live timing of a race event: the wall and the phone page (issue 44, decision 0122).
  timingWall: '/display/timing/:eventId',
  timing: '/timing/:eventId',
  customPageView: '/pages/:id',
  reservations: '/reservations',
  reservationsAdvanced: '/reservations/all',
  reservationCreate: '/reservations/:calendar',
  // Availability before signing up and the booking widget (issue 45, decision 0123).
  freeSeats: '/free-seats',
  widget: '/widget/:location',
  profile: '/profile',
  purchaseVoucher: '/vouchers/purchase',
  checkoutAuthenticated: '/checkouts/:id/authenticated',
  voucherAuthenticated: '/vouchers/purchases/:id/authenticated',
  authenticateCharge: '/charges/:id/authenticate',
  voucherBalance: '/vouchers/balance',
  login: '/login',
  logout: '/logout',
  forgot_password: '/login/password/reset',
  change_password: '/profile/password/change',
  signup: '/signup',
  adminCalendars: '/admin/seats',
  adminUser: '/admin/user/:userId',
  adminLauncher: '/admin/launcher',
  adminRigMap: '/admin/rigs',
  adminLaps: '/admin/laps',
  adminScreens: '/admin/screens',
  adminAudit: '/admin/audit',
  adminSettings: '/admin/settings',
  adminLocations: '/admin/locations',
  adminReports: '/admin/reports',
  adminStaff: '/admin/staff',
  adminPages: '/admin/pages',
  adminVouchers: '/admin/vouchers',
  adminBackups: '/admin/backups',
  adminOutbox: '/admin/outbox',
  // The spec leaves the party admin path open; see docs/decisions/ (web app shell).
  adminParties: '/admin/parties',
} as const;

export type RouteName = keyof typeof routePatterns;

type Query = Record<string, string | number | boolean | null | undefined>;

/**
 * The path of a named route: `pathTo('customPageView', {id: 3})` → `/pages/3`.
 * Optional params left out drop their segment; query values that are null/undefined are skipped.
 */
export function pathTo(
  name: RouteName,
  params: Record<string, string | number | undefined> = {},
  query: Query = {},
): string {
  const path =
    routePatterns[name]
      .split('/')
      .flatMap((segment) => {
        if (!segment.startsWith(':')) return [segment];
        const optional = segment.endsWith('?');
        const key = segment.slice(1, optional ? -1 : undefined);
        const value = params[key];
        if (value === undefined || value === '') {
          if (optional) return [];
          throw new Error(`pathTo(${name}): missing param ${key}`);
        }
        return [encodeURIComponent(String(value))];
      })
      .join('/') || '/';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Only same-site paths are followed after login/signup, so a crafted `?redirect=` cannot send
 * the user to another site.
 */
export function safeRedirect(value: string | null | undefined, fallback: string): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback;
  }
  return value;
}
