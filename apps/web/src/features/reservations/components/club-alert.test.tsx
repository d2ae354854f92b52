import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setToken } from '../../../lib/auth-store';
import { userQuery } from '../../../lib/current-user';
import { createQueryClient } from '../../../lib/query-client';
import { venueConfigQuery } from '../../../lib/venue-config';
import { fakeToken } from '../../../test/api-stub';
import { renderWithProviders, TEST_CONFIG, testUser } from '../../../test/render-app';
import { CLUB_ALERT_DELAY_MS, ClubAlert } from './club-alert';

function renderAlert() {
  const client = createQueryClient();
  const user = testUser();
  client.setQueryData(venueConfigQuery.queryKey, { ...TEST_CONFIG, club_enabled: true });
  setToken(fakeToken(user.id));
  client.setQueryData(userQuery(user.id).queryKey, user);
  const router = createMemoryRouter([{ path: '/', Component: ClubAlert }]);
  return renderWithProviders(<RouterProvider router={router} />, client);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('club alert', () => {
  it('holds its place from the first paint and shows itself after the delay', () => {
    vi.useFakeTimers();
    renderAlert();
    const region = screen.getByRole('status');
    // The place is taken (no layout shift later) but nothing is shown or reachable yet.
    expect(region.querySelector('.alert.invisible')).not.toBeNull();
    expect(screen.queryByRole('link', { name: 'Learn more' })).toBeNull();

    act(() => vi.advanceTimersByTime(CLUB_ALERT_DELAY_MS));
    expect(region.querySelector('.alert.invisible')).toBeNull();
    expect(screen.getByRole('link', { name: 'Learn more' })).toHaveAttribute(
      'href',
      '/subscription',
    );
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  });
});
