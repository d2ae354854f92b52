// The seat form's Steam account (decision 0118): labelled with its hint, reached and filled from
// the keyboard, a bad id shown on the field before anything is sent, a good one sent.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SeatAdmin } from '@paddock/contract/calendars';
import type { Location } from '@paddock/contract/locations';
import { STEAM_ID64_MESSAGE } from '@paddock/contract/calendars';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';

const OWNER = testUser({ id: 1, email: 'owner@example.com', is_staff: true });

const DOWNTOWN: Location = {
  id: 1,
  name: 'Downtown',
  address: '1 Main St',
  timezone: 'America/Los_Angeles',
  currency: 'USD',
  sales_tax_rate_percent: 0,
  booking_fee_cents: 0,
  booking_fees_threshold: 4,
  post_booking_url: '',
  cancellation_window_hours: null,
  late_cancellation_keep_percent: null,
  opening_hours: {},
  special_hours: {},
};

const SIM_1: SeatAdmin = {
  id: 7,
  name: 'Sim 1',
  cost_cents: 3000,
  cost_unit: '30 minutes',
  type: 2,
  type_name: 'GT Rig',
  type_image: '',
  type_description: '',
  type_min_minutes: 30,
  image: '',
  event: null,
  location: 1,
  currency: 'USD',
  active: true,
  sort_order: 0,
  steam_id: null,
};

describe('a seat’s Steam account', { timeout: 30_000 }, () => {
  it('is labelled, typed from the keyboard, refused on its field when wrong and sent when right', async () => {
    const calls = stubApi({
      'GET /api/locations': {
        body: { count: 1, page_count: 1, page_size: 100, results: [DOWNTOWN] },
      },
      'GET /api/caltypes': {
        body: {
          count: 1,
          page_count: 1,
          page_size: 100,
          results: [
            { id: 2, name: 'GT Rig', image: '', description: '', is_vr: false, min_minutes: 30 },
          ],
        },
      },
      'GET /api/locations/1/seats': { body: [SIM_1] },
      'PATCH /api/calendars/7': (request) => ({
        body: { ...SIM_1, ...(request.body as object) },
      }),
    });
    renderApp('/admin/locations', {
      user: OWNER,
      permissions: ['locations.change_location', 'calendars.change_calendar'],
    });
    const edit = await screen.findByRole('button', { name: 'Edit seat Sim 1' });
    edit.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Sim 1' });
    const field = within(dialog).getByLabelText('Steam account of this PC (SteamID64)');
    expect(field).toHaveAccessibleDescription(/17-digit id \(starts with 7656119\)/);

    // From the keyboard: Tab walks to it (the order field comes just before).
    within(dialog).getByLabelText('Display order').focus();
    await userEvent.tab();
    expect(field).toHaveFocus();
    await userEvent.keyboard('7656119797107030{Enter}');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(new RegExp(STEAM_ID64_MESSAGE.slice(0, 30)));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.type(field, '2{Enter}');
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const sent = calls.find((c) => c.method === 'PATCH')!.body as Record<string, unknown>;
    expect(sent.steam_id).toBe('76561197971070302');
    expect(await screen.findByText('The seat Sim 1 has been saved.')).toBeVisible();
  });
});
