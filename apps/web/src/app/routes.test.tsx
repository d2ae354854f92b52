import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp, testUser } from '../test/render-app';
import { accessRedirect, mayOpen } from './route-access';
import { fakeToken, stubApi } from '../test/api-stub';
import { decodeToken, type Session } from '../lib/auth-store';

function session(permissions: Session['permissions']): Session {
  const token = fakeToken(1);
  return { token, userId: 1, expiresAt: decodeToken(token)!.exp, permissions };
}

describe('route guards (spec §2)', () => {
  it('send a visitor without a token to signup with the full path', () => {
    expect(accessRedirect({ login: true }, null, '/reservations/all?location=2')).toBe(
      '/signup?redirect=%2Freservations%2Fall%3Flocation%3D2',
    );
  });

  it('leave a signed-in user without staff status or a permission where they are (403 page)', () => {
    const customer = session({ is_staff: false, is_superuser: false, permissions: [] });
    const access = { login: true, staff: true, permissions: ['user.change_user'] as const };
    expect(accessRedirect(access, customer, '/admin/user/3')).toBeNull();
    expect(mayOpen(access, customer)).toBe(false);
    const staffWithout = session({ is_staff: true, is_superuser: false, permissions: [] });
    expect(mayOpen(access, staffWithout)).toBe(false);
    const staffWith = session({
      is_staff: true,
      is_superuser: false,
      permissions: ['user.change_user'],
    });
    expect(accessRedirect(access, staffWith, '/admin/user/3')).toBeNull();
    expect(mayOpen(access, staffWith)).toBe(true);
  });

  it('open public routes to everyone', () => {
    expect(accessRedirect({}, null, '/leaderboards')).toBeNull();
  });
});

describe('route table', () => {
  it("redirects '/' to the dashboard, which sends a visitor to signup", async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
    expect(router.state.location.search).toBe('?redirect=%2Fdashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign Up' })).toBeVisible();
  });

  it.each([
    ['/reservations/all', 'Sign up or Log in to view sim availability'],
    ['/reservations/12', 'Sign up or Log in to view sim availability'],
    ['/vouchers/purchase', 'Sign up or Log in to purchase a voucher'],
    ['/subscription?sessions=8', 'Sign up or Log in to create a subscription'],
  ])('shows the signup prompt for %s', async (path, prompt) => {
    renderApp(path);
    expect(await screen.findByText(prompt)).toBeVisible();
  });

  it('shows a customer the 403 page on the daily planner and keeps them signed in', async () => {
    const { router } = renderApp('/admin/seats', { user: testUser() });
    expect(
      await screen.findByRole('heading', { name: 'You do not have access to this page' }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/admin/seats');
    expect(screen.getByText('A staff account')).toBeVisible();
    expect(screen.getByText('Run the daily planner and change bookings')).toBeVisible();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  });

  it('shows staff lacking a permission the 403 page naming it in words', async () => {
    renderApp('/admin/settings', {
      user: testUser({ is_staff: true }),
      permissions: ['reservations.change_reservation'],
    });
    expect(
      await screen.findByRole('heading', { name: 'You do not have access to this page' }),
    ).toBeVisible();
    expect(screen.getByText('Change venue settings')).toBeVisible();
    expect(screen.queryByText('A staff account')).toBeNull();
  });

  it('lets staff with the permission into the planner and shows the Admin Menu', async () => {
    const { router } = renderApp('/admin/seats', {
      user: testUser({ is_staff: true }),
      permissions: ['reservations.change_reservation'],
    });
    expect(await screen.findByRole('heading', { name: 'Daily Planner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/seats');
    await userEvent.click(screen.getByRole('button', { name: 'Book Now' }));
    expect(screen.getByText('Admin Menu')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Daily Planner' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Launcher' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Parties' })).toBeNull();
  });

  it('shows race staff the Launcher and Parties in the Admin Menu, not the planner', async () => {
    stubApi({ 'GET /api/races/parties': { body: [] }, 'GET /api/calendars': { body: [] } });
    renderApp('/admin/parties', {
      user: testUser({ is_staff: true, location: 1 }),
      permissions: ['leaderboards.can_manage_race_events'],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Parties' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Book Now' }));
    expect(screen.getByRole('link', { name: 'Launcher' })).toHaveAttribute(
      'href',
      '/admin/launcher',
    );
    expect(screen.getByRole('link', { name: 'Parties' })).toHaveAttribute('href', '/admin/parties');
    expect(screen.queryByRole('link', { name: 'Daily Planner' })).toBeNull();
  });

  it('shows no Admin Menu to customers', async () => {
    renderApp('/leaderboards', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Book Now' }));
    expect(screen.getByRole('link', { name: 'Book a Simulator' })).toBeVisible();
    expect(screen.queryByText('Admin Menu')).toBeNull();
  });

  it('shows Page Not Found for unknown paths, and Go Back Home leaves it', async () => {
    const { router } = renderApp('/no/such/place');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Go Back Home' }));
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/no/such/place'));
  });

  it('shows the logged-out top bar and footer', async () => {
    renderApp('/leaderboards');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const names = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(names).toEqual(['Leaderboards', 'Cars & Tracks', 'Log In', 'Sign Up']);
    expect(within(nav).getByRole('button', { name: 'Book Now' })).toBeVisible();
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    for (const name of ['Forgot Password', 'Create an Account', 'Log Out']) {
      expect(within(footer).getByRole('link', { name })).toBeVisible();
    }
    expect(within(footer).queryByRole('link', { name: 'Change Password' })).toBeNull();
  });

  it('shows the logged-in top bar and hides it with ?nav=false', async () => {
    const { router } = renderApp('/leaderboards', { user: testUser() });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Leaderboards', 'Dashboard', 'MyLaps', 'Cars & Tracks']);
    await router.navigate('/leaderboards?nav=false');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull());
  });
});
