import type { FastifyRequest, RouteOptions } from 'fastify';
import type { Permission } from '@paddock/contract/accounts';
import { requirePermission, requireUser } from './auth';
import { Forbidden } from './errors';

/**
 * Who may call a route, checked before the request's body is read:
 * - `public`: anyone;
 * - `user`: any signed-in user (whose object it is, is the feature's check);
 * - `rig`: a rig agent (the feature checks its key);
 * - `superuser`: superusers only (what no permission grants, e.g. making superusers);
 * - a permission string: staff holding it (superusers hold them all);
 * - `{ anyOf }`: staff holding at least one of them; `{ allOf }`: staff holding all of them;
 * - `{ rigOr }`: a rig agent (the feature checks its key and seat), or staff holding it;
 * - `token`: a machine's own bearer token, never a session (the route checks it).
 */
export type Access =
  | 'public'
  | 'user'
  | 'rig'
  | 'superuser'
  | 'token'
  | Permission
  | { anyOf: Permission[] }
  | { allOf: Permission[] }
  | { rigOr: Permission };

const VIEW_USERS: Access = {
  anyOf: ['user.view_user', 'user.change_user', 'reservations.change_reservation'],
};
const RACES: Access = 'leaderboards.can_manage_race_events';

/**
 * Every API route and who may call it: one table to read, and a route missing here stops the
 * server at start (see `routeAccessHook`). Keys are `METHOD /url` as registered (`:param`).
 */
export const ROUTE_ACCESS: Record<string, Access> = {
  // Venue
  'GET /api/': 'public',
  // Health probes (issue 29)
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'OPTIONS /api/': 'public',
  'GET /api/settings': 'public',
  'PATCH /api/settings': 'venue.change_settings',
  // Accounts
  'POST /api/auth/token': 'public',
  'POST /api/auth/login_link': 'public',
  'POST /api/auth/logout': 'user',
  'POST /api/auth/logout_all': 'user',
  'GET /api/auth/permissions': 'user',
  'POST /api/users': 'public',
  'GET /api/users': VIEW_USERS,
  'POST /api/users/forgot_password': 'public',
  // A walk-in's account, made by whoever books at the desk or edits customers (decision 0082).
  'POST /api/users/desk': { anyOf: ['reservations.change_reservation', 'user.change_user'] },
  'GET /api/users/:id': 'user',
  'PATCH /api/users/:id': 'user',
  'PUT /api/users/:id': 'user',
  'DELETE /api/users/:id': 'user.change_user',
  'POST /api/users/:id/update_password': 'user',
  'POST /api/users/:id/send_login_link': 'user.change_user',
  'PUT /api/users/:id/permissions': 'user.change_staff',
  // Own data, or a customer's for staff with user.change_user (the feature checks, decision 0124).
  'GET /api/users/:id/my_data': 'user',
  'GET /api/users/:id/deletion_preview': 'user',
  'POST /api/users/:id/delete_account': 'user',
  // Staff
  'GET /api/staff': 'user.change_staff',
  'POST /api/staff/invite': 'user.change_staff',
  'PUT /api/staff/:id/superuser': 'superuser',
  // Cards, charges, payments
  'GET /api/users/:id/card': 'user',
  'POST /api/users/:id/card': 'user',
  'DELETE /api/users/:id/card': 'user',
  'GET /api/users/me/charges': 'user',
  'POST /api/users/me/charges/:id/authenticate': 'user',
  'POST /api/payments/local/tokens': 'public',
  'GET /api/payments/local/receipts/:chargeId': 'public',
  // The bank's 3-D Secure page: the unguessable intent id is the key, as at Stripe (0085).
  'GET /api/payments/local/challenges/:intentRef': 'public',
  'POST /api/payments/local/challenges/:intentRef': 'public',
  // Stripe's, checked by its signature (decision 0084).
  'POST /api/payments/stripe/webhook': 'public',
  // The dispute flag on a customer's admin page.
  'GET /api/users/:id/disputes': VIEW_USERS,
  // Pages and mail
  'GET /api/pages': 'public',
  'POST /api/pages': 'pages.change_page',
  'POST /api/pages/preview': 'pages.change_page',
  'GET /api/pages/:id': 'public',
  'PATCH /api/pages/:id': 'pages.change_page',
  'PUT /api/pages/:id': 'pages.change_page',
  'DELETE /api/pages/:id': 'pages.change_page',
  'GET /api/pages/:id/content': 'public',
  // Images (docs/decisions/0041)
  'GET /api/images': 'public',
  'POST /api/images': 'images.add_image',
  'GET /api/images/:id': 'public',
  'DELETE /api/images/:id': 'images.add_image',
  'GET /api/images/files/:name': 'public',
  'GET /api/outbox': 'outbox.view_message',
  'GET /api/outbox/:id': 'outbox.view_message',
  // Whoever may open a mail may send it again (the service applies the same scope, 0115).
  'POST /api/outbox/:id/resend': 'outbox.view_message',
  // Locations and calendars
  'GET /api/locations': 'public',
  'GET /api/locations/nearest': 'public',
  'GET /api/locations/:id': 'public',
  'PATCH /api/locations/:id': 'locations.change_location',
  'PUT /api/locations/:id': 'locations.change_location',
  'POST /api/locations': 'locations.change_location',
  'POST /api/locations/slot-preview': 'locations.change_location',
  'GET /api/locations/:id/seats': 'calendars.change_calendar',
  'POST /api/caltypes': 'calendars.change_calendar',
  'PATCH /api/caltypes/:id': 'calendars.change_calendar',
  'PUT /api/caltypes/:id': 'calendars.change_calendar',
  'POST /api/calendars': 'calendars.change_calendar',
  'PATCH /api/calendars/:id': 'calendars.change_calendar',
  'PUT /api/calendars/:id': 'calendars.change_calendar',
  'GET /api/caltypes': 'public',
  'GET /api/calendars': 'public',
  'GET /api/calendars/parallel': 'public',
  'GET /api/calendars/:id': 'public',
  'GET /api/calendars/:id/avail': 'public',
  'GET /api/avail/quote': 'public',
  // Availability before signing up and the widget (issue 45, decision 0123): the setting decides.
  'GET /api/public/availability': 'public',
  // Reservations and checkout
  'GET /api/reservations': 'user',
  'POST /api/reservations': 'user',
  'GET /api/reservations/:id': 'user',
  // The owner's or staff's (the route checks whose it is, like the reservation itself).
  'GET /api/reservations/:id/calendar.ics': 'user',
  'PATCH /api/reservations/:id': 'user',
  'PUT /api/reservations/:id': 'user',
  'DELETE /api/reservations/:id': 'user',
  'GET /api/users/me/reservations/future': 'user',
  'GET /api/users/:id/balance': 'user',
  'GET /api/users/:id/cost_breakdown': 'user',
  'POST /api/users/:id/clear_outstanding': {
    allOf: ['reservations.change_reservation', 'user.change_user'],
  },
  'POST /api/users/me/charges/capture_outstanding': 'user',
  // Money taken at the desk (0083): toward the whole balance with the powers of marking it paid;
  // the planner permission alone for the bookings it names, its own sale (the service, 0116).
  'POST /api/users/:id/desk_payments': 'reservations.change_reservation',
  'POST /api/feed_token': 'reservations.change_reservation',
  'DELETE /api/feed_token': 'user',
  // The feed takes a session header or its own feed token; the route checks either.
  'GET /api/feed.ics': 'public',
  'POST /api/reservations/checkouts/quote': 'user',
  'POST /api/reservations/checkouts/:id/process': 'user',
  // Vouchers
  'POST /api/vouchers': 'vouchers.add_voucher',
  'POST /api/users/me/vouchers/purchase': 'user',
  'POST /api/users/me/vouchers/purchases/:id/complete': 'user',
  'GET /api/vouchers/:code/balance': 'public',
  'GET /api/vouchers': 'vouchers.view_voucher',
  'GET /api/vouchers/:id': 'vouchers.view_voucher',
  'POST /api/vouchers/:id/void': 'vouchers.change_voucher',
  // Club
  'GET /api/users/:id/charges/credits_purchase_quote': 'user',
  'POST /api/users/:id/charges/credits_enroll': 'user',
  'POST /api/users/me/subscriptions/:id/complete': 'user',
  'POST /api/users/:id/charges/credits_unenroll': 'user',
  'GET /api/users/:id/subscriptions': 'user',
  // Catalogue, laps and leaderboards
  'GET /api/tracks': 'public',
  'POST /api/tracks': 'leaderboards.change_board',
  'GET /api/tracks/:id': 'public',
  'PATCH /api/tracks/:id': 'leaderboards.change_board',
  'GET /api/cars': 'public',
  'POST /api/cars': 'leaderboards.change_board',
  'GET /api/cars/:id': 'public',
  'PATCH /api/cars/:id': 'leaderboards.change_board',
  'GET /api/groups': 'public',
  'POST /api/groups': 'leaderboards.change_board',
  'GET /api/laps': 'user',
  'GET /api/laps/progress': 'user',
  // A rig agent: the route checks its rig key.
  'POST /api/laps': 'rig',
  'PATCH /api/laps/:id': 'laps.change_lap',
  'POST /api/laps/import': 'laps.change_lap',
  'GET /api/rig_keys': 'rigs.change_rig',
  'GET /api/rig_keys/me': 'rig',
  // Pairing a PC with a seat and its health (issue 43, decision 0121): a PC without a key asks
  // for a code and fetches its key with its own secret (rate-limited); staff pair and watch.
  'POST /api/rig_pairings': 'public',
  'POST /api/rig_pairings/key': 'public',
  'GET /api/rig_pairings': 'rigs.change_rig',
  'POST /api/rig_keys/pair': 'rigs.change_rig',
  'POST /api/rigs/health': 'rig',
  'GET /api/rigs/health': 'rigs.change_rig',
  'GET /api/rigs/agent': 'rig',
  'GET /api/rigs/agent/download': 'rig',
  // The rig session (issue 42, decision 0120): the rig's own seat, by its key.
  'GET /api/rig_session': 'rig',
  'POST /api/rig_session/start': 'rig',
  'POST /api/rig_session/extend': 'rig',
  'POST /api/rig_session/report': 'rig',
  // The same extension from the app, on the customer's own booking (the route checks whose).
  'POST /api/reservations/:id/extend': 'user',
  'POST /api/rig_keys': 'rigs.change_rig',
  'DELETE /api/rig_keys/:id': 'rigs.change_rig',
  'GET /api/boards': 'public',
  'POST /api/boards': 'leaderboards.change_board',
  'GET /api/boards/:id': 'public',
  'PATCH /api/boards/:id': 'leaderboards.change_board',
  'DELETE /api/boards/:id': 'leaderboards.change_board',
  'GET /api/boards/:id/results': 'public',
  'GET /api/teams': 'public',
  // Served beside the API
  // The change feed: public topics for anyone, staff topics checked by the route.
  'GET /api/events': 'public',
  'GET /api/planner': 'reservations.change_reservation',
  'POST /api/planner/blackout': 'reservations.change_reservation',
  'POST /api/planner/delete': 'reservations.change_reservation',
  'POST /api/planner/book': 'reservations.change_reservation',
  'POST /api/planner/move': 'reservations.change_reservation',
  'POST /api/planner/attendance': 'reservations.change_reservation',
  'POST /api/planner/book/quote': 'reservations.change_reservation',
  'POST /api/planner/delete/quote': 'reservations.change_reservation',
  'GET /api/planner/out_of_service': 'reservations.change_reservation',
  'POST /api/planner/out_of_service': 'reservations.change_reservation',
  'POST /api/planner/walk_in': 'reservations.change_reservation',
  'POST /api/planner/walk_in/quote': 'reservations.change_reservation',
  // The rig map (decision 0127): the seats' bookings and rigs; Move is the planner's move.
  'GET /api/rig_map': 'reservations.change_reservation',
  'POST /api/rig_map/move': 'reservations.change_reservation',
  'GET /api/audit': 'audit.view_event',
  // Reports
  'GET /api/reports': 'reports.view_report',
  // Cancellations and refunds: customers their own bookings (the service checks whose).
  'GET /api/reservations/:id/cancel_quote': 'user',
  'POST /api/reservations/:id/cancel': 'user',
  'GET /api/reservations/:id/move_quote': 'user',
  'POST /api/reservations/:id/move': 'user',
  'POST /api/reservations/:id/no_show': 'reservations.change_reservation',
  'POST /api/reservations/:id/no_show/undo': 'reservations.change_reservation',
  'POST /api/refunds/:id/retry': 'reservations.change_reservation',
  'POST /api/waitlist': 'user',
  'GET /api/waitlist': 'user',
  'DELETE /api/waitlist/:id': 'user',
  'GET /api/screens': 'screens.change_screen',
  'POST /api/screens/reload': 'screens.change_screen',
  'DELETE /api/screens/:id': 'screens.change_screen',
  // Race control: parties, events, presets, host signals, socket tickets.
  'GET /api/races/parties': RACES,
  'POST /api/races/parties/host': RACES,
  'PATCH /api/races/parties/:id': RACES,
  'DELETE /api/races/parties/:id': RACES,
  'POST /api/races/parties/members': RACES,
  'DELETE /api/races/parties/members/:id': RACES,
  'GET /api/races/events': RACES,
  'GET /api/races/events/:id': { rigOr: 'leaderboards.can_manage_race_events' },
  'PATCH /api/races/events/:id': RACES,
  'PUT /api/races/events/:id': RACES,
  'POST /api/races/events/:id/signal': RACES,
  'POST /api/races/events/:id/ticket': RACES,
  'POST /api/races/events/:id/server': RACES,
  // The live timing tower: the room's wall and spectators' phones (decision 0122).
  'GET /api/races/events/:id/timing': 'public',
  'POST /api/races/events/:id/timing/replay': RACES,
  'GET /api/races/presets': RACES,
  'POST /api/races/presets': RACES,
  'DELETE /api/races/presets/:id': RACES,
  'GET /api/races/assists': 'public',
  'GET /api/races/drivers': RACES,
  'GET /api/skins': 'public',
  // The launcher socket checks its ticket, rig key or Bearer header itself.
  'GET /ws/launcher/events/:id': 'public',
  'GET /api/openapi.json': 'public',
  // Backups (decisions 0074, 0114): a download is the whole database, so superusers only.
  'GET /api/backups': 'superuser',
  'POST /api/backups': 'superuser',
  'GET /api/backups/:name': 'superuser',
  // Prometheus: off unless METRICS_TOKEN is set, then that bearer token only (plugins/metrics).
  'GET /metrics': 'token',
};

/** Routes outside the access table: the web app, its assets, the API's own documentation. */
const outsideApi = (url: string) =>
  !(url.startsWith('/api/') || url.startsWith('/ws') || url === '/metrics') ||
  url.startsWith('/api/docs');

function guardFor(access: Access) {
  if (access === 'public' || access === 'rig' || access === 'token') return null;
  if (access === 'user') return async (request: FastifyRequest) => void requireUser(request);
  if (access === 'superuser')
    return async (request: FastifyRequest) => {
      if (!requireUser(request).isSuperuser) throw new Forbidden();
    };
  if (typeof access === 'string')
    return async (request: FastifyRequest) => void requirePermission(request, access);
  if ('rigOr' in access) {
    const permission = access.rigOr;
    return async (request: FastifyRequest) => {
      if (request.headers.authorization?.startsWith('Rig ')) return;
      requirePermission(request, permission);
    };
  }
  if ('allOf' in access)
    return async (request: FastifyRequest) => void requirePermission(request, ...access.allOf);
  return async (request: FastifyRequest) => {
    const user = requireUser(request);
    if (!access.anyOf.some((p) => user.isSuperuser || user.permissions.has(p)))
      throw new Forbidden();
  };
}

export class MissingAccessRule extends Error {}

/**
 * onRoute hook: puts each route's guard from `ROUTE_ACCESS` in the route's `onRequest`, after the
 * app's own `onRequest` that reads the token and before the body is even read: an unauthorised
 * call is a 401/403 whatever its body, and costs no parsing, hook or validation (issue 27). A
 * route without a rule stops the server.
 */
export function routeAccessHook(table: Record<string, Access> = ROUTE_ACCESS) {
  return (route: RouteOptions) => {
    const methods = ([] as string[]).concat(route.method);
    if (outsideApi(route.url)) return;
    for (const method of methods) {
      const key = `${method === 'HEAD' ? 'GET' : method} ${route.url}`;
      const access = table[key];
      if (access === undefined)
        throw new MissingAccessRule(`${key} has no rule in plugins/route-access.ts`);
      const guard = guardFor(access);
      if (!guard) continue;
      const existing = route.onRequest;
      route.onRequest = existing
        ? ([guard, ...([] as unknown[]).concat(existing)] as RouteOptions['onRequest'])
        : guard;
    }
  };
}
