import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';

const KEEPER = testUser({
  id: 1,
  email: 'keeper@example.com',
  is_staff: true,
  is_superuser: true,
});
const NIGHTLY = {
  name: 'paddock-20261126T113000Z-nightly.backup.gz',
  kind: 'nightly',
  size_bytes: 2_400_000,
  created: '2026-11-26T11:30:00.000Z',
};
const MANUAL = {
  name: 'paddock-20261126T180000Z-manual.backup.gz',
  kind: 'manual',
  size_bytes: 2_500_000,
  created: '2026-11-26T18:00:00.000Z',
};
const SCHEDULE = { nightly: true, time: '03:30', keep: 14, timezone: 'America/Los_Angeles' };

describe('/admin/backups', { timeout: 30_000 }, () => {
  it('lists the backups with the schedule, and takes one now', async () => {
    let taken = false;
    const calls = stubApi({
      'GET /api/backups': () => ({
        body: {
          count: taken ? 2 : 1,
          page_count: 1,
          page_size: 100,
          results: taken ? [MANUAL, NIGHTLY] : [NIGHTLY],
          schedule: SCHEDULE,
        },
      }),
      'POST /api/backups': () => {
        taken = true;
        return { status: 201, body: MANUAL };
      },
    });
    renderApp('/admin/backups', { user: KEEPER });
    expect(
      await screen.findByText(/every night at 03:30 \(America\/Los_Angeles\); the newest 14/),
    ).toBeVisible();
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByText('Nightly')).toBeVisible();
    expect(within(table).getByText('2.3 MB')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Take a Backup Now' }));
    expect(await screen.findByText(`Backup ${MANUAL.name} taken.`)).toBeVisible();
    expect(await within(table).findByText('Manual')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('is closed to staff who are not superusers, whatever they hold', async () => {
    const calls = stubApi({});
    const staff = testUser({ id: 2, email: 'desk@example.com', is_staff: true });
    renderApp('/admin/backups', { user: staff, permissions: ['user.change_staff'] });
    expect(
      await screen.findByRole('heading', { name: 'You do not have access to this page' }),
    ).toBeVisible();
    expect(screen.getByText('A superuser account (no permission grants it)')).toBeVisible();
    expect(calls.filter((c) => c.path.startsWith('/api/backups'))).toHaveLength(0);
  });
});
