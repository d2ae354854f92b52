import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
// From 'react-router' itself: in Node, 'react-router/dom' loads a second copy of the router.
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { User } from '@paddock/contract/accounts';
import { DEFAULT_SETTINGS, type VenueConfig } from '@paddock/contract/venue';
import { Providers } from '../app/providers';
import { buildRoutes } from '../app/routes';
import { setPermissions, setToken } from '../lib/auth-store';
import { userQuery } from '../lib/current-user';
import { createQueryClient } from '../lib/query-client';
import { venueConfigQuery } from '../lib/venue-config';
import { fakeToken } from './api-stub';

export const TEST_CONFIG: VenueConfig = {
  ...DEFAULT_SETTINGS,
  payment_provider: 'local',
  stripe_publishable_key: null,
  default_timezone: 'America/Los_Angeles',
};

export function testUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    username: 'sam@example.com',
    email: 'sam@example.com',
    location: null,
    first_name: 'Sam',
    last_name: 'Racer',
    contact_phone: '5551234567',
    zip_code: '94107',
    racer_name: '',
    flag_code: 'us',
    flag_url: '',
    visit_reminders: true,
    social_instagram: '',
    sim_guid: null,
    display_name: 'Sam Racer',
    is_onboarded: true,
    is_staff: false,
    is_superuser: false,
    credits_subscription_exists: false,
    credits_subscription_in_good_standing: false,
    credits_subscription_cancelable: false,
    credits_balance: 0,
    credits_recurring: 0,
    credits_recurring_cents: 0,
    credits_cycle_day_of_month: null,
    customer_id: null,
    subscription_id: null,
    ...overrides,
  };
}

type Options = {
  /** Sign someone in first (with these permissions). */
  user?: User;
  permissions?: string[];
  config?: Partial<VenueConfig>;
};

/** The real route table in memory at `path`, with the venue config already loaded (as boot does). */
export function renderApp(path: string, options: Options = {}) {
  const client = createQueryClient();
  client.setQueryData(venueConfigQuery.queryKey, { ...TEST_CONFIG, ...options.config });
  if (options.user) {
    setToken(fakeToken(options.user.id));
    setPermissions({
      is_staff: options.user.is_staff,
      is_superuser: options.user.is_superuser,
      permissions: options.permissions ?? [],
    });
    client.setQueryData(userQuery(options.user.id).queryKey, options.user);
  }
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  const view = render(
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, client };
}

/**
 * One component inside the app's providers, without the route table: how a feature's test renders
 * its own piece (features do not import app/, decision 0105).
 */
export function renderWithProviders(ui: ReactNode, client: QueryClient = createQueryClient()) {
  return render(<Providers client={client}>{ui}</Providers>);
}
