import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Location } from '@paddock/contract/locations';
import { stubApi, type StubAnswer, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { LOCATION_SAVED } from './locations-screen';

const OWNER = testUser({ id: 1, email: 'owner@example.com', is_staff: true });

const DOWNTOWN: Location = {
  id: 1,
  name: 'Downtown',
  address: '1 Main St',
  timezone: 'America/Los_Angeles',
  currency: 'USD',
  sales_tax_rate_percent: 8.875,
  booking_fee_cents: 200,
  booking_fees_threshold: 4,
  post_booking_url: '',
  cancellation_window_hours: null,
  late_cancellation_keep_percent: null,
  opening_hours: { '1': [{ open: '12:00', close: '22:00' }] },
  special_hours: {},
};

function open(patch: StubAnswer | ((request: StubRequest) => StubAnswer)) {
  const calls = stubApi({
    'GET /api/locations': {
      body: { count: 1, page_count: 1, page_size: 100, results: [DOWNTOWN] },
    },
    'PATCH /api/locations/1': patch,
    'POST /api/locations/slot-preview': {
      body: {
        date: '2026-11-23',
        timezone: 'America/Los_Angeles',
        half_hours_in_day: 48,
        slots: [{ slot: '2026-11-23T12:00', time: '2026-11-23T12:00:00-08:00' }],
      },
    },
  });
  renderApp('/admin/locations', { user: OWNER, permissions: ['locations.change_location'] });
  return calls;
}

// The screen is lazy-loaded with the form, hours editor and preview: the first test pays for it.
describe('/admin/locations', { timeout: 30_000 }, () => {
  it('saves an edited location with a second range after midnight, the fee in cents', async () => {
    const calls = open((request) => ({ body: { ...DOWNTOWN, ...(request.body as object) } }));
    const fee = await screen.findByLabelText('Booking fee per slot (USD)');
    await userEvent.clear(fee);
    await userEvent.paste('1.75');
    const monday = screen.getByRole('group', { name: 'Monday' });
    await userEvent.click(within(monday).getByRole('button', { name: 'Add hours on Monday' }));
    const opens = within(monday).getByLabelText('Monday opens (2)');
    fireEvent.change(opens, { target: { value: '22:00' } });
    const closes = within(monday).getByLabelText('Monday closes (2)');
    fireEvent.change(closes, { target: { value: '02:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save Location' }));
    expect(await screen.findByText(LOCATION_SAVED)).toBeVisible();
    const sent = calls.find((c) => c.method === 'PATCH')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      booking_fee_cents: 175,
      opening_hours: {
        '1': [
          { open: '12:00', close: '22:00' },
          { open: '22:00', close: '02:00' },
        ],
      },
    });
  });

  it("refuses overlapping hours before sending, and puts the server's 400 on its field", async () => {
    const calls = open({
      status: 400,
      body: { timezone: ['Enter a valid IANA time zone, e.g. America/Los_Angeles.'] },
    });
    const monday = await screen.findByRole('group', { name: 'Monday' });
    await userEvent.click(within(monday).getByRole('button', { name: 'Add hours on Monday' }));
    const opens = within(monday).getByLabelText('Monday opens (2)');
    fireEvent.change(opens, { target: { value: '20:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save Location' }));
    expect(await within(monday).findByText('Opening hours may not overlap.')).toBeVisible();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.click(within(monday).getByRole('button', { name: 'Remove Monday hours (2)' }));
    const zone = screen.getByLabelText('Time zone');
    await userEvent.clear(zone);
    await userEvent.paste('Mars/Olympus');
    await userEvent.click(screen.getByRole('button', { name: 'Save Location' }));
    await waitFor(() => expect(zone).toHaveAttribute('aria-invalid', 'true'));
    expect(
      screen.getByText('Enter a valid IANA time zone, e.g. America/Los_Angeles.'),
    ).toBeVisible();
  });

  it('previews the slots with the hours on the form, through the server', async () => {
    const calls = open({ body: DOWNTOWN });
    await userEvent.click(await screen.findByRole('button', { name: 'Preview Slots' }));
    expect(await screen.findByText(/1 bookable slot on 2026-11-23/)).toBeVisible();
    const sent = calls.find((c) => c.path === '/api/locations/slot-preview')!.body;
    expect(sent).toMatchObject({
      timezone: 'America/Los_Angeles',
      opening_hours: DOWNTOWN.opening_hours,
      special_hours: {},
    });
  });
});
