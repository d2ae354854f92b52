import crypto from 'node:crypto';
import { expect, expectAccessible, test } from './fixtures';
import { openAllDay } from './desk-support';

/**
 * Issue 42, the rig screen (decision 0120): opened with the rig's key like a wall screen (no
 * login, no navigation), between bookings, then live when a booking starts on its seat: the
 * greeting, the time left, the warning (the first warning set to 30 minutes so any half-hour is
 * inside it), and the one-tap extension, booked through the checkout as the customer (no saved
 * card: to pay at the desk). At 1080p and on a phone.
 */
test('rig screen: between bookings, a session with its time left, the warning and the extension', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 1_000_000}`;
  const { seats, headers } = await openAllDay(request, tag, ['Rig']);
  const [seat] = seats;
  const key = (
    (await (await request.post('/api/rig_keys', { headers, data: { calendar: seat } })).json()) as {
      key: string;
    }
  ).key;
  const warn = await request.patch('/api/settings', {
    headers,
    data: { rig_first_warning_minutes: 30, rig_last_warning_minutes: 1 },
  });
  expect(warn.ok(), await warn.text()).toBe(true);
  try {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`/rig#key=${key}`);
    await expect(page.getByRole('heading', { level: 1, name: `Rig ${tag}` })).toBeVisible();
    await expect(page.getByText('Free now')).toBeVisible();
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expectAccessible(page);

    // Ada walks in for the current half-hour: the screen greets her, live.
    const walkIn = await request.post('/api/planner/walk_in', {
      headers,
      data: {
        calendar: seat,
        half_hours: 1,
        name: 'Ada Racer',
        email: '',
        method: 'cash',
        idempotency_key: crypto.randomUUID(),
      },
    });
    expect(walkIn.ok(), await walkIn.text()).toBe(true);
    await expect(page.getByText('Welcome, Ada Racer')).toBeVisible();
    await expect(page.getByText(/^\d+ minutes? left$/)).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(/\d+ minutes? left/);
    await expectAccessible(page);

    // One tap: the next half-hour is hers, to pay at the desk (no saved card).
    await page.getByRole('button', { name: 'Extend 30 minutes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Extended' })).toContainText(
      'Please pay at the desk.',
    );
    await expect(page.getByText(/^([3-5]\d|60) minutes left$/)).toBeVisible();
    // The half-hour after that is free too: she could extend again; the screen still offers it.
    await expect(page.getByRole('button', { name: 'Extend 30 minutes' })).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText('Welcome, Ada Racer')).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    await expectAccessible(page);
  } finally {
    await request.patch('/api/settings', {
      headers,
      data: { rig_first_warning_minutes: 5, rig_last_warning_minutes: 1 },
    });
  }
});
