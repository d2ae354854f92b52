import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '@paddock/contract/accounts';
import { PERMISSION_LABELS } from '@paddock/contract/permission-labels';
import { createTestApp, type TestApp } from './test-app';
import { ApiContract } from './api-contract';
import { bearer, createUser, type CreatedUser } from './factories';
import { createVenue, futureDate } from './booking-factories';
import Fastify from 'fastify';
import {
  MissingAccessRule,
  ROUTE_ACCESS,
  routeAccessHook,
  type Access,
} from '../plugins/route-access';

/**
 * The authorization matrix: every API route × every role, and for routes on someone's object,
 * own × other object. The expected rule of each route is written here a second time, so a
 * change of rule (or a route without one) shows up as a failing cell, not a silent widening.
 */
const VIEW_USERS = 'anyOf:user.view_user,user.change_user,reservations.change_reservation';
const RACES = 'leaderboards.can_manage_race_events';
const EXPECTED: Record<string, string> = {
  'GET /api/': 'public',
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'OPTIONS /api/': 'public',
  'GET /api/settings': 'public',
  'PATCH /api/settings': 'venue.change_settings',
  'POST /api/auth/token': 'public',
  'POST /api/auth/login_link': 'public',
  'POST /api/auth/logout': 'user',
  'POST /api/auth/logout_all': 'user',
  'GET /api/auth/permissions': 'user',
  'POST /api/users': 'public',
  'GET /api/users': VIEW_USERS,
  'POST /api/users/forgot_password': 'public',
  'POST /api/users/desk': 'anyOf:reservations.change_reservation,user.change_user',
  'GET /api/users/:id': 'user',
  'PATCH /api/users/:id': 'user',
  'PUT /api/users/:id': 'user',
  'DELETE /api/users/:id': 'user.change_user',
  'POST /api/users/:id/update_password': 'user',
  'POST /api/users/:id/send_login_link': 'user.change_user',
  'PUT /api/users/:id/permissions': 'user.change_staff',
  // Own, or a customer's for staff with user.change_user (decision 0124).
  'GET /api/users/:id/my_data': 'user',
  'GET /api/users/:id/deletion_preview': 'user',
  'POST /api/users/:id/delete_account': 'user',
  'GET /api/staff': 'user.change_staff',
  'POST /api/staff/invite': 'user.change_staff',
  'PUT /api/staff/:id/superuser': 'superuser',
  'GET /api/users/:id/card': 'user',
  'POST /api/users/:id/card': 'user',
  'DELETE /api/users/:id/card': 'user',
  'GET /api/users/me/charges': 'user',
  'POST /api/users/me/charges/:id/authenticate': 'user',
  'POST /api/payments/local/tokens': 'public',
  'GET /api/payments/local/receipts/:chargeId': 'public',
  'GET /api/payments/local/challenges/:intentRef': 'public',
  'POST /api/payments/local/challenges/:intentRef': 'public',
  'POST /api/payments/stripe/webhook': 'public',
  'GET /api/users/:id/disputes': VIEW_USERS,
  'GET /api/pages': 'public',
  'POST /api/pages': 'pages.change_page',
  'POST /api/pages/preview': 'pages.change_page',
  'GET /api/pages/:id': 'public',
  'PATCH /api/pages/:id': 'pages.change_page',
  'PUT /api/pages/:id': 'pages.change_page',
  'DELETE /api/pages/:id': 'pages.change_page',
  'GET /api/pages/:id/content': 'public',
  'GET /api/images': 'public',
  'POST /api/images': 'images.add_image',
  'GET /api/images/:id': 'public',
  'DELETE /api/images/:id': 'images.add_image',
  'GET /api/images/files/:name': 'public',
  'GET /api/outbox': 'outbox.view_message',
  'GET /api/outbox/:id': 'outbox.view_message',
  'POST /api/outbox/:id/resend': 'outbox.view_message',
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
  'GET /api/public/availability': 'public',
  'GET /api/reservations': 'user',
  'POST /api/reservations': 'user',
  'GET /api/reservations/:id': 'user',
  'GET /api/reservations/:id/calendar.ics': 'user',
  'PATCH /api/reservations/:id': 'user',
  'PUT /api/reservations/:id': 'user',
  'DELETE /api/reservations/:id': 'user',
  'GET /api/users/me/reservations/future': 'user',
  'GET /api/users/:id/balance': 'user',
  'GET /api/users/:id/cost_breakdown': 'user',
  'POST /api/users/:id/clear_outstanding': 'allOf:reservations.change_reservation,user.change_user',
  'POST /api/users/me/charges/capture_outstanding': 'user',
  'POST /api/users/:id/desk_payments': 'reservations.change_reservation',
  'POST /api/feed_token': 'reservations.change_reservation',
  'DELETE /api/feed_token': 'user',
  'GET /api/feed.ics': 'public',
  'POST /api/reservations/checkouts/quote': 'user',
  'POST /api/reservations/checkouts/:id/process': 'user',
  'POST /api/vouchers': 'vouchers.add_voucher',
  'POST /api/users/me/vouchers/purchase': 'user',
  'POST /api/users/me/vouchers/purchases/:id/complete': 'user',
  'GET /api/vouchers/:code/balance': 'public',
  'GET /api/vouchers': 'vouchers.view_voucher',
  'GET /api/vouchers/:id': 'vouchers.view_voucher',
  'POST /api/vouchers/:id/void': 'vouchers.change_voucher',
  'GET /api/users/:id/charges/credits_purchase_quote': 'user',
  'POST /api/users/:id/charges/credits_enroll': 'user',
  'POST /api/users/me/subscriptions/:id/complete': 'user',
  'POST /api/users/:id/charges/credits_unenroll': 'user',
  'GET /api/users/:id/subscriptions': 'user',
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
  'POST /api/laps': 'rig',
  'PATCH /api/laps/:id': 'laps.change_lap',
  'POST /api/laps/import': 'laps.change_lap',
  'GET /api/rig_keys': 'rigs.change_rig',
  'GET /api/rig_keys/me': 'rig',
  'GET /api/rig_session': 'rig',
  'POST /api/rig_session/start': 'rig',
  'POST /api/rig_session/extend': 'rig',
  'POST /api/rig_session/report': 'rig',
  'POST /api/reservations/:id/extend': 'user',
  'POST /api/rig_keys': 'rigs.change_rig',
  'DELETE /api/rig_keys/:id': 'rigs.change_rig',
  'POST /api/rig_pairings': 'public',
  'POST /api/rig_pairings/key': 'public',
  'GET /api/rig_pairings': 'rigs.change_rig',
  'POST /api/rig_keys/pair': 'rigs.change_rig',
  'POST /api/rigs/health': 'rig',
  'GET /api/rigs/health': 'rigs.change_rig',
  'GET /api/rigs/agent': 'rig',
  'GET /api/rigs/agent/download': 'rig',
  'GET /api/boards': 'public',
  'POST /api/boards': 'leaderboards.change_board',
  'GET /api/boards/:id': 'public',
  'PATCH /api/boards/:id': 'leaderboards.change_board',
  'DELETE /api/boards/:id': 'leaderboards.change_board',
  'GET /api/boards/:id/results': 'public',
  'GET /api/teams': 'public',
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
  'GET /api/rig_map': 'reservations.change_reservation',
  'POST /api/rig_map/move': 'reservations.change_reservation',
  'GET /api/audit': 'audit.view_event',
  'GET /api/reports': 'reports.view_report',
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
  'GET /api/races/parties': RACES,
  'POST /api/races/parties/host': RACES,
  'PATCH /api/races/parties/:id': RACES,
  'DELETE /api/races/parties/:id': RACES,
  'POST /api/races/parties/members': RACES,
  'DELETE /api/races/parties/members/:id': RACES,
  'GET /api/races/events': RACES,
  'GET /api/races/events/:id': `rigOr:${RACES}`,
  'PATCH /api/races/events/:id': RACES,
  'PUT /api/races/events/:id': RACES,
  'POST /api/races/events/:id/signal': RACES,
  'POST /api/races/events/:id/ticket': RACES,
  'POST /api/races/events/:id/server': RACES,
  'GET /api/races/events/:id/timing': 'public',
  'POST /api/races/events/:id/timing/replay': RACES,
  'GET /api/races/presets': RACES,
  'POST /api/races/presets': RACES,
  'DELETE /api/races/presets/:id': RACES,
  'GET /api/races/assists': 'public',
  'GET /api/races/drivers': RACES,
  'GET /api/skins': 'public',
  'GET /ws/launcher/events/:id': 'public',
  'GET /api/openapi.json': 'public',
  'GET /api/backups': 'superuser',
  'POST /api/backups': 'superuser',
  'GET /api/backups/:name': 'superuser',
  'GET /metrics': 'token',
};

/** Routes that answer anonymous callers with a 401 of their own (the feed checks its token). */
const ANONYMOUS_401 = new Set(['GET /api/feed.ics', 'GET /ws/launcher/events/:id']);

const describeAccess = (a: Access) =>
  typeof a === 'string'
    ? a
    : 'anyOf' in a
      ? `anyOf:${a.anyOf.join(',')}`
      : 'rigOr' in a
        ? `rigOr:${a.rigOr}`
        : `allOf:${a.allOf.join(',')}`;

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let superuser: CreatedUser;
let plainStaff: CreatedUser;
const permitted = new Map<string, CreatedUser>();
const cells: string[] = [];

let contract: ApiContract;

beforeAll(async () => {
  t = await createTestApp();
  // Every answer below is also held against the API document (the contract test, issue 32).
  contract = (await ApiContract.of(t.app)).watch(t.app);
  venue = await createVenue(t, { seats: 4 });
  superuser = await createUser(t, { isStaff: true, isSuperuser: true });
  plainStaff = await createUser(t, { isStaff: true });
  for (const p of PERMISSIONS)
    permitted.set(p, await createUser(t, { isStaff: true, permissions: [p as Permission] }));
});
afterAll(() => t.close());

type Owned = { user: CreatedUser; reservation: number; checkout: number };
let slotCounter = 0;

/** A customer with a reservation and a checkout of their own. */
async function owner(): Promise<Owned> {
  const user = await createUser(t);
  const slot = () => {
    slotCounter += 1;
    const seat = venue.seats[slotCounter % venue.seats.length];
    const halfHour = Math.floor(slotCounter / venue.seats.length) % 24;
    const day = 2 + Math.floor(slotCounter / (venue.seats.length * 24));
    const hhmm = `${String(8 + Math.floor(halfHour / 2)).padStart(2, '0')}:${halfHour % 2 ? '30' : '00'}`;
    return { calendar: seat.id, slot: `${futureDate(day)}T${hhmm}` };
  };
  const call = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });
  const booked = await call('/api/reservations', slot());
  expect(booked.statusCode).toBe(201);
  const quoted = await call('/api/reservations/checkouts/quote', { reservations: [slot()] });
  expect(quoted.statusCode).toBe(200);
  return { user, reservation: booked.json().id, checkout: quoted.json().checkout_id };
}

/** The concrete URL of a route for an object of `who` (`me` stays `me`). */
function urlFor(route: string, who: Owned, page: number): string {
  const path = route.split(' ')[1];
  const id = path.startsWith('/api/users/')
    ? who.user.id
    : path.startsWith('/api/reservations/checkouts/')
      ? who.checkout
      : path.startsWith('/api/reservations/')
        ? who.reservation
        : path.startsWith('/api/pages/')
          ? page
          : path.startsWith('/api/locations/')
            ? venue.location.id
            : path.startsWith('/api/calendars/')
              ? venue.seats[0].id
              : 1;
  return (path + (QUERIES[route] ?? ''))
    .replace(':id', String(id))
    .replace(':code', 'NO-SUCH-CODE')
    .replace(':chargeId', 'ch_unknown')
    .replace(':intentRef', 'ch_unknown')
    .replace(/^\/api\/backups\/:name$/, '/api/backups/paddock-20260101T000000Z-manual.backup.gz');
}

const DENIED = [401, 403];

/**
 * Valid bodies, so a call on someone else's object is refused for that, not for its body. A
 * function gets the caller: one's own password change carries one's current password (0113).
 */
const BODIES: Record<string, object | ((user: CreatedUser | null) => object)> = {
  'PATCH /api/users/:id': { first_name: 'Changed' },
  'PUT /api/users/:id': { first_name: 'Changed' },
  'POST /api/users/:id/update_password': (user) => ({
    new_password: user?.password ?? 'a-long-new-password',
    current_password: user?.password,
  }),
  'POST /api/users/:id/delete_account': (user) => ({ current_password: user?.password }),
  'POST /api/users/:id/card': { token: 'tok_unknown' },
  'POST /api/reservations/:id/extend': { ends: '2026-01-01T10:00:00Z' },
  'POST /api/users/:id/charges/credits_enroll': { credits_amount: 4 },
  'PUT /api/users/:id/permissions': { is_staff: true, permissions: [] },
  'POST /api/staff/invite': { email: 'matrix-invite@example.com', permissions: [] },
};

/** Required query parameters, for the same reason. */
const QUERIES: Record<string, string> = {
  'GET /api/teams': '?board=1',
  'GET /api/laps/progress': '?track=1',
  'GET /api/users/:id/charges/credits_purchase_quote': '?credits=4',
};

async function send(route: string, url: string, user: CreatedUser | null) {
  const method = route.split(' ')[0] as 'GET';
  const body = BODIES[route] ?? {};
  const res = await t.app.inject({
    method,
    url,
    headers: user ? bearer(user.token) : {},
    ...(['POST', 'PATCH', 'PUT'].includes(method)
      ? { payload: typeof body === 'function' ? body(user) : body }
      : {}),
  });
  expect(res.statusCode, `${route} → ${url}`).toBeLessThan(500);
  return res.statusCode;
}

describe('authorization matrix', () => {
  it('has a rule for every route, the same as written here', () => {
    const actual = Object.fromEntries(
      Object.entries(ROUTE_ACCESS).map(([k, v]) => [k, describeAccess(v)]),
    );
    expect(actual).toEqual(EXPECTED);
  });

  it('every route answers every role as its rule says', async () => {
    const page = (
      await t.app.inject({
        method: 'POST',
        url: '/api/pages',
        headers: bearer(superuser.token),
        payload: { name: 'Matrix page' },
      })
    ).json().id as number;
    // Destructive calls last, so they cannot take away what the other rows use.
    const routes = Object.keys(EXPECTED).sort(
      (a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')),
    );
    for (const route of routes) {
      const rule = EXPECTED[route];
      const [mine, theirs] = [await owner(), await owner()];
      const own = urlFor(route, mine, page);
      const cell = async (name: string, user: CreatedUser | null, url: string, want: string) => {
        const status = await send(route, url, user);
        const ok =
          want === 'allowed'
            ? !DENIED.includes(status)
            : want === 'hidden'
              ? status === 404 || status === 403
              : status === Number(want);
        cells.push(`${route} | ${name} | ${want} | ${status}`);
        expect(ok, `${route} as ${name}: expected ${want}, got ${status}`).toBe(true);
      };

      if (rule === 'token') {
        // Off here (no METRICS_TOKEN): no session of any kind opens it (metrics.test.ts: on).
        for (const [name, user] of [
          ['anonymous', null],
          ['customer', mine.user],
          ['superuser', superuser],
        ] as const)
          await cell(name, user, own, '404');
        continue;
      }
      if (rule === 'public') {
        await cell('anonymous', null, own, ANONYMOUS_401.has(route) ? '401' : 'allowed');
        continue;
      }
      await cell('anonymous', null, own, '401');
      if (rule === 'rig') {
        // A session is not a rig key, whoever holds it.
        await cell('customer', mine.user, own, '401');
        await cell('superuser', superuser, own, '401');
        continue;
      }
      if (rule === 'superuser') {
        await cell('customer', mine.user, own, '403');
        await cell('staff without the permission', plainStaff, own, '403');
        for (const p of PERMISSIONS)
          await cell(`staff with only ${p}`, permitted.get(p)!, own, '403');
        await cell('superuser', superuser, own, 'allowed');
        continue;
      }
      if (rule === 'user') {
        // Someone else's object first: the own call may end the session (a password change).
        const other = urlFor(route, theirs, page);
        if (other !== own) await cell("customer, someone else's", mine.user, other, 'hidden');
        await cell('customer, own object', mine.user, own, 'allowed');
        continue;
      }
      const [kind, list] = rule.includes(':') ? rule.split(':') : ['one', rule];
      const needed = list.split(',') as Permission[];
      await cell('customer', mine.user, own, '403');
      await cell('staff without the permission', plainStaff, own, '403');
      if (kind === 'allOf') {
        const holder = await createUser(t, { isStaff: true, permissions: needed });
        await cell(`staff with ${list}`, holder, own, 'allowed');
      } else {
        for (const p of needed) await cell(`staff with ${p}`, permitted.get(p)!, own, 'allowed');
      }
      for (const p of PERMISSIONS.filter((q) => kind === 'allOf' || !needed.includes(q)))
        await cell(`staff with only ${p}`, permitted.get(p)!, own, '403');
      await cell('superuser', superuser, own, 'allowed');
    }
    console.log(`authorization matrix: ${cells.length} cells over ${routes.length} routes`);
  }, 300_000);

  it("keeps a superuser's details and card from staff who manage users", async () => {
    const manager = permitted.get('user.change_user')!;
    for (const [method, url, payload] of [
      ['GET', `/api/users/${superuser.id}`],
      ['PATCH', `/api/users/${superuser.id}`, { first_name: 'Owned' }],
      ['PATCH', `/api/users/${superuser.id}`, { email: 'owned@example.com' }],
      ['POST', `/api/users/${superuser.id}/update_password`, { new_password: 'owned-owned-1' }],
      ['GET', `/api/users/${superuser.id}/card`],
      ['DELETE', `/api/users/${superuser.id}/card`],
      ['GET', `/api/users/${superuser.id}/subscriptions`],
      ['GET', `/api/users/me/charges?user=${superuser.id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: bearer(manager.token),
        ...(payload ? { payload } : {}),
      });
      expect([403, 404], `${method} ${url}`).toContain(res.statusCode);
    }
  });
});

describe('the escalation chain through a second account (issue 27)', () => {
  const as = (
    who: CreatedUser,
    method: 'GET' | 'PUT' | 'PATCH' | 'POST',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });
  const rightsOf = async (who: CreatedUser) =>
    (await as(who, 'GET', '/api/auth/permissions')).json() as {
      is_staff: boolean;
      permissions: string[];
    };

  it('refuses every grant of a permission the grantor does not hold, so no chain opens', async () => {
    const held: Permission[] = ['user.change_staff', 'user.change_user', 'user.view_user'];
    const a = await createUser(t, { isStaff: true, permissions: held });
    const b = await createUser(t);

    // A cannot hand B a power A lacks, whether by setting permissions or by an invitation.
    const grant = await as(a, 'PUT', `/api/users/${b.id}/permissions`, {
      is_staff: true,
      permissions: ['venue.change_settings', 'user.change_staff'],
    });
    expect(grant.statusCode).toBe(403);
    // The refusal names what is missing in words (decision 0082).
    expect(grant.json().detail).toContain(PERMISSION_LABELS['venue.change_settings']);
    const invite = await as(a, 'POST', '/api/staff/invite', {
      email: b.email,
      permissions: ['venue.change_settings', 'user.change_staff'],
    });
    expect(invite.statusCode).toBe(403);
    expect(await rightsOf(b)).toMatchObject({ is_staff: false, permissions: [] });

    // Nor can anyone change a staff flag or permissions through the account form.
    for (const field of [{ is_staff: true }, { is_superuser: true }, { permissions: held }]) {
      const patched = await as(a, 'PATCH', `/api/users/${b.id}`, field);
      expect(patched.statusCode).toBe(400);
    }
    expect(await rightsOf(b)).toMatchObject({ is_staff: false, permissions: [] });

    // What A holds, A may pass on; B then holds no more than A did.
    const allowed = await as(a, 'PUT', `/api/users/${b.id}/permissions`, {
      is_staff: true,
      permissions: ['user.change_staff'],
    });
    expect(allowed.statusCode).toBe(200);
    const back = await as(b, 'PUT', `/api/users/${a.id}/permissions`, {
      is_staff: true,
      permissions: [...held, 'outbox.view_message', 'audit.view_event'],
    });
    expect(back.statusCode).toBe(403);
    const viaInvite = await as(b, 'POST', '/api/staff/invite', {
      email: a.email,
      permissions: ['outbox.view_message'],
    });
    expect([400, 403]).toContain(viaInvite.statusCode);
    expect(
      (
        await as(a, 'PUT', `/api/users/${a.id}/permissions`, {
          is_staff: true,
          permissions: [...held, 'outbox.view_message'],
        })
      ).statusCode,
    ).toBe(400);
    expect((await rightsOf(a)).permissions).toEqual([...held].sort());

    // So the mailbox of login links and the audit trail stay closed to A.
    expect((await as(a, 'GET', '/api/outbox')).statusCode).toBe(403);
    expect((await as(a, 'GET', '/api/audit')).statusCode).toBe(403);
  });
});

describe('the guard comes before the body', () => {
  // Issue 27: the guard ran after the body was read, parsed and walked, so anyone could make the
  // server do that work (2 MB to the import route ran it out of heap).
  it('refuses a guarded route before reading its body, however broken or large', async () => {
    const customer = await createUser(t);
    const problems: string[] = [];
    let tried = 0;
    for (const [route, access] of Object.entries(ROUTE_ACCESS)) {
      const [method, path] = route.split(' ') as ['POST', string];
      if (!['POST', 'PATCH', 'PUT'].includes(method) || access === 'public') continue;
      const url = path.replace(/:\w+/g, '1');
      const cases: [string, CreatedUser | null, number][] = [['anonymous', null, 401]];
      if (access !== 'user' && access !== 'rig') cases.push(['customer', customer, 403]);
      for (const [who, user, want] of cases) {
        tried += 1;
        const res = await t.app.inject({
          method,
          url,
          headers: { ...(user ? bearer(user.token) : {}), 'content-type': 'application/json' },
          payload: '{"broken":',
        });
        if (res.statusCode !== want) problems.push(`${route} as ${who}: ${res.statusCode}`);
      }
    }
    // Over the import route's own 10 MB limit: refused for who sends it, not for its size.
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/laps/import',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(11 * 1024 * 1024, 0x7b),
    });
    if (huge.statusCode !== 401) problems.push(`11 MB import as anonymous: ${huge.statusCode}`);
    console.log(`guard before body: ${tried + 1} requests, ${problems.length} problems`);
    expect(problems).toEqual([]);
  });
});

describe('a route without a rule', () => {
  it('stops the server from starting', async () => {
    const app = Fastify();
    app.addHook('onRoute', routeAccessHook({ 'GET /api/known': 'public' }));
    app.get('/api/known', async () => 'ok');
    expect(() => app.get('/api/forgotten', async () => 'oops')).toThrow(MissingAccessRule);
    await app.close();
  });
});

describe('the contract', () => {
  it('every answer above is what the API document says (status, content type, body schema)', () => {
    console.log(
      `contract: ${contract.checked} answers checked, ${contract.problems.length} mismatches`,
    );
    expect(contract.checked).toBeGreaterThan(1000);
    expect(contract.problems).toEqual([]);
  });
});
