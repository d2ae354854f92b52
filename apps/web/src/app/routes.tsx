import { redirect, type RouteObject } from 'react-router';
import { pathTo, routePatterns, type RouteName } from '../lib/routes';
import {
  guardLoader,
  type Access,
  type PrefetchModule,
  type RouteHandle,
  type ScreenModule,
} from './route-access';
import { AppLayout } from './layout/app-layout';
import { AppSpinner } from './layout/app-spinner';
import { ADMIN_ACCESS } from './admin-screens';
import { RouteError } from './layout/route-error';
import { NotFoundScreen } from './screens/not-found-screen';

/** Routes whose loader always redirects render nothing of their own. */
function RedirectOnly() {
  return null;
}

const ANY: Access = {};
const LOGIN: Access = { login: true };

/**
 * One route of the table. Every screen is its own chunk: the first paint needs only the shell,
 * and admin and display code never reaches customers who do not open them.
 */
function screen(
  name: RouteName,
  access: Access,
  load: () => Promise<ScreenModule>,
  extra: Partial<RouteObject> & {
    bodyClass?: string;
    wall?: boolean;
    /** What the screen opens with, started beside boot (decision 0061). */
    prefetch?: () => Promise<PrefetchModule>;
  } = {},
): RouteObject {
  const { bodyClass, wall, prefetch, ...rest } = extra;
  const handle: RouteHandle = { name, access, bodyClass, wall, load, prefetch };
  return {
    id: name,
    path: routePatterns[name],
    handle,
    loader: access === ANY ? undefined : guardLoader(access),
    lazy: async () => ({ Component: (await load()).default }),
    ...rest,
  } as RouteObject;
}

/** The complete route table of both specs (customer §2, staff §2). */
export function buildRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      Component: AppLayout,
      HydrateFallback: AppSpinner,
      children: [
        {
          // Errors inside a screen keep the nav and footer around them.
          errorElement: <RouteError />,
          children: [
            {
              id: 'home',
              index: true,
              handle: { name: 'home', redirectsTo: pathTo('dashboard') } satisfies RouteHandle,
              loader: () => redirect(pathTo('dashboard')),
              Component: RedirectOnly,
            },
            screen('dashboard', LOGIN, () => import('./screens/dashboard-screen'), {
              prefetch: () => import('./screens/dashboard-prefetch'),
            }),
            screen(
              'subscription',
              LOGIN,
              () => import('../features/club/routes/subscription-screen'),
            ),
            screen(
              'enrolmentAuthenticated',
              LOGIN,
              () => import('../features/club/routes/enrolment-authenticated-screen'),
            ),
            screen(
              'addSubscription',
              LOGIN,
              () => import('../features/club/routes/add-subscription-screen'),
            ),
            screen('laps', LOGIN, () => import('../features/laps/routes/laps-screen')),
            screen(
              'availability',
              ANY,
              () => import('../features/catalog/routes/availability-screen'),
              {
                children: [
                  {
                    index: true,
                    loader: () => redirect(pathTo('availabilityCars')),
                    Component: RedirectOnly,
                  },
                  screen(
                    'availabilityCars',
                    ANY,
                    () => import('../features/catalog/routes/availability-cars-screen'),
                  ),
                  screen(
                    'availabilityTracks',
                    ANY,
                    () => import('../features/catalog/routes/availability-tracks-screen'),
                    {
                      prefetch: () =>
                        import('../features/catalog/routes/availability-tracks-prefetch'),
                    },
                  ),
                ],
              },
            ),
            screen(
              'leaderboards',
              ANY,
              () => import('../features/leaderboards/routes/leaderboards-screen'),
              { prefetch: () => import('../features/leaderboards/routes/leaderboards-prefetch') },
            ),
            screen('welcome', ANY, () => import('../features/displays/routes/welcome-screen'), {
              bodyClass: 'paddock-display',
              wall: true,
            }),
            screen('splash', ANY, () => import('../features/displays/routes/splash-screen'), {
              bodyClass: 'paddock-display',
              wall: true,
            }),
            screen('display', ANY, () => import('../features/displays/routes/display-screen'), {
              bodyClass: 'paddock-display',
              wall: true,
            }),
            screen(
              'timingWall',
              ANY,
              () => import('../features/displays/routes/timing-wall-screen'),
              { bodyClass: 'paddock-display', wall: true },
            ),
            screen('timing', ANY, () => import('../features/displays/routes/timing-screen')),
            screen('rigScreen', ANY, () => import('../features/displays/routes/rig-screen'), {
              bodyClass: 'paddock-display',
              wall: true,
            }),
            screen(
              'customPageView',
              ANY,
              () => import('../features/pages/routes/custom-page-screen'),
            ),
            screen(
              'reservations',
              LOGIN,
              () => import('../features/reservations/routes/reservations-screen'),
            ),
            // Listed before /reservations/:calendar so "all" is never read as a calendar id.
            screen(
              'reservationsAdvanced',
              LOGIN,
              () => import('../features/reservations/routes/reservation-locations-screen'),
              {
                prefetch: () =>
                  import('../features/reservations/routes/reservation-locations-prefetch'),
              },
            ),
            screen(
              'reservationCreate',
              LOGIN,
              () => import('../features/reservations/routes/reservation-create-screen'),
            ),
            // Their own chunks: nothing of them in the booking route's first load (issue 46).
            screen(
              'freeSeats',
              ANY,
              () => import('../features/public-availability/routes/free-seats-screen'),
            ),
            screen(
              'widget',
              ANY,
              () => import('../features/public-availability/routes/widget-screen'),
              { wall: true, bodyClass: 'paddock-widget-page' },
            ),
            screen('profile', LOGIN, () => import('../features/accounts/routes/profile-screen')),
            screen(
              'checkoutAuthenticated',
              LOGIN,
              () => import('../features/checkout/routes/checkout-authenticated-screen'),
            ),
            screen(
              'authenticateCharge',
              LOGIN,
              () => import('../features/charges/routes/authenticate-charge-screen'),
            ),
            screen(
              'purchaseVoucher',
              LOGIN,
              () => import('../features/vouchers/routes/purchase-voucher-screen'),
            ),
            screen(
              'voucherAuthenticated',
              LOGIN,
              () => import('../features/vouchers/routes/voucher-authenticated-screen'),
            ),
            screen(
              'voucherBalance',
              ANY,
              () => import('../features/vouchers/routes/voucher-balance-screen'),
            ),
            screen('login', ANY, () => import('../features/accounts/routes/login-screen')),
            screen('logout', ANY, () => import('../features/accounts/routes/logout-screen')),
            screen(
              'forgot_password',
              ANY,
              () => import('../features/accounts/routes/forgot-password-screen'),
            ),
            screen(
              'change_password',
              LOGIN,
              () => import('../features/accounts/routes/change-password-screen'),
            ),
            screen('signup', ANY, () => import('../features/accounts/routes/signup-screen')),
            screen(
              'adminCalendars',
              ADMIN_ACCESS.adminCalendars,
              () => import('../features/planner/routes/daily-planner-screen'),
            ),
            screen(
              'adminUser',
              ADMIN_ACCESS.adminUser,
              () => import('./screens/admin-user-screen'),
            ),
            screen(
              'adminLauncher',
              ADMIN_ACCESS.adminLauncher,
              () => import('../features/race-events/routes/launcher-screen'),
            ),
            screen(
              'adminRigMap',
              ADMIN_ACCESS.adminRigMap,
              () => import('../features/rig-map/routes/rig-map-screen'),
            ),
            screen(
              'adminLaps',
              ADMIN_ACCESS.adminLaps,
              () => import('../features/laps-admin/routes/laps-admin-screen'),
            ),
            screen(
              'adminScreens',
              ADMIN_ACCESS.adminScreens,
              () => import('../features/screens-admin/routes/screens-admin-screen'),
            ),
            screen(
              'adminBackups',
              ADMIN_ACCESS.adminBackups,
              () => import('../features/backups/routes/backups-screen'),
            ),
            screen(
              'adminAudit',
              ADMIN_ACCESS.adminAudit,
              () => import('../features/audit/routes/audit-screen'),
            ),
            screen(
              'adminSettings',
              ADMIN_ACCESS.adminSettings,
              () => import('../features/venue-settings/routes/venue-settings-screen'),
            ),
            screen(
              'adminLocations',
              ADMIN_ACCESS.adminLocations,
              () => import('../features/venue-setup/routes/locations-screen'),
            ),
            screen(
              'adminReports',
              ADMIN_ACCESS.adminReports,
              () => import('../features/reports/routes/reports-screen'),
            ),
            screen(
              'adminStaff',
              ADMIN_ACCESS.adminStaff,
              () => import('../features/staff-admin/routes/staff-admin-screen'),
            ),
            screen(
              'adminPages',
              ADMIN_ACCESS.adminPages,
              () => import('../features/pages/routes/pages-admin-screen'),
            ),
            screen(
              'adminVouchers',
              ADMIN_ACCESS.adminVouchers,
              () => import('../features/vouchers/routes/vouchers-admin-screen'),
            ),
            screen(
              'adminOutbox',
              ADMIN_ACCESS.adminOutbox,
              () => import('../features/outbox/routes/outbox-screen'),
            ),
            screen(
              'adminParties',
              ADMIN_ACCESS.adminParties,
              () => import('../features/parties/routes/party-admin-screen'),
            ),
            { id: 'notFound', path: '*', Component: NotFoundScreen },
          ],
        },
      ],
    },
  ];
}
