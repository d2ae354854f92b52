import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_SETTINGS } from '@paddock/contract/venue';
import { stubApi, type StubAnswer, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { SETTINGS_SAVED } from './venue-settings-screen';

const OWNER = testUser({ id: 1, email: 'owner@example.com', is_staff: true });

function open(patch: StubAnswer | ((request: StubRequest) => StubAnswer)) {
  const calls = stubApi({
    'GET /api/settings': { body: DEFAULT_SETTINGS },
    'PATCH /api/settings': patch,
  });
  renderApp('/admin/settings', { user: OWNER, permissions: ['venue.change_settings'] });
  return calls;
}

describe('/admin/settings', { timeout: 30_000 }, () => {
  it('saves the edited settings, the first race price in cents', async () => {
    const calls = open((request) => ({
      body: { ...DEFAULT_SETTINGS, ...(request.body as object) },
    }));
    const name = await screen.findByLabelText('Club name');
    await userEvent.clear(name);
    await userEvent.paste('Grid Club');
    const window = screen.getByLabelText('Free cancellation until (hours before)');
    await userEvent.clear(window);
    await userEvent.paste('48');
    const price = screen.getByLabelText('First race price ($)');
    await userEvent.clear(price);
    await userEvent.paste('12.50');
    const currency = screen.getByLabelText('Default currency');
    await userEvent.clear(currency);
    await userEvent.paste('gbp');
    await userEvent.click(screen.getByRole('button', { name: 'Add a top bar link' }));
    await userEvent.click(screen.getByLabelText('Top bar link 1 label'));
    await userEvent.paste('Events');
    await userEvent.click(screen.getByLabelText('Top bar link 1 address'));
    await userEvent.paste('https://example.com/events');
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText(SETTINGS_SAVED)).toBeVisible();
    const sent = calls.find((c) => c.method === 'PATCH')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      club_name: 'Grid Club',
      club_first_race_cents: 1250,
      default_currency: 'GBP',
      cancellation_window_hours: 48,
      club_cancellation_window_hours: null,
      nav_links: [{ label: 'Events', url: 'https://example.com/events' }],
    });
  });

  it("checks limits before sending, and puts the server's 400 on its field", async () => {
    const calls = open({ status: 400, body: { logo_url: ['Enter a valid https:// address.'] } });
    const discount = await screen.findByLabelText('Member discount (%)');
    await userEvent.clear(discount);
    await userEvent.paste('150');
    const currency = screen.getByLabelText('Default currency');
    await userEvent.clear(currency);
    await userEvent.paste('XYZ1');
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(discount).toHaveAttribute('aria-invalid', 'true'));
    expect(currency).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.clear(discount);
    await userEvent.paste('15');
    await userEvent.clear(currency);
    await userEvent.paste('USD');
    await userEvent.click(screen.getByLabelText('Logo address'));
    await userEvent.paste('https://example.com/logo.png');
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Enter a valid https:// address.')).toBeVisible();
    expect(screen.getByLabelText('Logo address')).toHaveAttribute('aria-invalid', 'true');
  });
});
