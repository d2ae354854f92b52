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
    /** What the screen opens with, started beside boot (decision 0061). */
    prefetch?: () => Promise<PrefetchModule>;
  } = {},
): RouteObject {
  const { bodyClass, prefetch, ...rest } = extra;
  const handle: RouteHandle = { name, access, bodyClass, load, prefetch };
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
            }),
            screen('splash', ANY, () => import('../features/displays/routes/splash-screen'), {
              bodyClass: 'paddock-display',
            }),
            screen('display', ANY, () => import('../features/displays/routes/display-screen'), {
              bodyClass: 'paddock-display',
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
            screen('profile', LOGIN, () => import('../features/accounts/routes/profile-screen')),
            screen(
              'purchaseVoucher',
              LOGIN,
              () => import('../features/vouchers/routes/purchase-voucher-screen'),
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
              { login: true, staff: true, permissions: ['reservations.change_reservation'] },
              () => import('../features/planner/routes/daily-planner-screen'),
            ),
            screen(
              'adminUser',
              {
                login: true,
                staff: true,
                permissions: ['reservations.change_reservation', 'user.change_user'],
              },
              () => import('../features/admin-users/routes/admin-user-screen'),
            ),
            screen(
              'adminLauncher',
              { login: true, staff: true, permissions: ['leaderboards.can_manage_race_events'] },
              () => import('../features/race-events/routes/launcher-screen'),
            ),
            screen(
              'adminLaps',
              { login: true, staff: true, permissions: ['leaderboards.change_board'] },
              () => import('../features/laps-admin/routes/laps-admin-screen'),
            ),
            screen(
              'adminScreens',
              { login: true, staff: true, permissions: ['screens.change_screen'] },
              () => import('../features/screens-admin/routes/screens-admin-screen'),
            ),
            screen(
              'adminBackups',
              { login: true, staff: true, permissions: ['backups.view_backup'] },
              () => import('../features/backups/routes/backups-screen'),
            ),
            screen(
              'adminAudit',
              { login: true, staff: true, permissions: ['audit.view_event'] },
              () => import('../features/audit/routes/audit-screen'),
            ),
            screen(
              'adminSettings',
              { login: true, staff: true, permissions: ['venue.change_settings'] },
              () => import('../features/venue-settings/routes/venue-settings-screen'),
            ),
            screen(
              'adminLocations',
              { login: true, staff: true, permissions: ['locations.change_location'] },
              () => import('../features/venue-setup/routes/locations-screen'),
            ),
            screen(
              'adminReports',
              { login: true, staff: true, permissions: ['reports.view_report'] },
              () => import('../features/reports/routes/reports-screen'),
            ),
            screen(
              'adminStaff',
              { login: true, staff: true, permissions: ['user.change_staff'] },
              () => import('../features/staff-admin/routes/staff-admin-screen'),
            ),
            screen(
              'adminPages',
              { login: true, staff: true, permissions: ['pages.change_page'] },
              () => import('../features/pages/routes/pages-admin-screen'),
            ),
            screen(
              'adminVouchers',
              { login: true, staff: true, permissions: ['vouchers.view_voucher'] },
              () => import('../features/vouchers/routes/vouchers-admin-screen'),
            ),
            screen(
              'adminParties',
              { login: true, staff: true, permissions: ['leaderboards.can_manage_race_events'] },
              () => import('../features/parties/routes/party-admin-screen'),
            ),
            { id: 'notFound', path: '*', Component: NotFoundScreen },
          ],
        },
      ],
    },
  ];
}
