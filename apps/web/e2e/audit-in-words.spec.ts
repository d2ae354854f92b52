import { expect, expectAccessible, logIn, test } from './fixtures';
import { OWNER, apiToken, shot, staffWith } from './desk-support';

test('the audit trail shows special hours, a seat price, a new page and grants in words, with named links', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, OWNER);
  const auth = { Authorization: `Bearer ${token}` };
  const locations = (await (await request.get('/api/locations')).json()) as {
    results: { id: number; name: string }[];
  };
  const downtown = locations.results.find((l) => l.name.includes('Downtown'))!;
  const seats = (await (
    await request.get(`/api/locations/${downtown.id}/seats`, { headers: auth })
  ).json()) as { id: number; name: string }[];
  const seat = seats.find((s) => s.name === 'Cockpit 1')!;

  // Staff writes, as the screens send them.
  expect(
    (
      await request.patch(`/api/locations/${downtown.id}`, {
        headers: auth,
        data: { special_hours: { '2026-12-24': [{ open: '10:00', close: '14:00' }] } },
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await request.patch(`/api/calendars/${seat.id}`, {
        headers: auth,
        data: { cost_cents: 3100 },
      })
    ).status(),
  ).toBe(200);
  const created = await request.post('/api/pages', {
    headers: auth,
    data: { name: 'Race Night Rules', menu_name: '', content: '<p>Be kind.</p>' },
  });
  expect(created.status()).toBe(201);
  const pageId = ((await created.json()) as { id: number }).id;
  await staffWith(request, ['reports.view_report']);
  const customer = await request.post('/api/users/desk', {
    headers: auth,
    data: { first_name: 'Gone', last_name: 'Soon', contact_phone: `555 03${Date.now() % 100000}` },
  });
  const gone = ((await customer.json()) as { user: { id: number } }).user.id;
  expect((await request.delete(`/api/users/${gone}`, { headers: auth })).status()).toBeLessThan(
    300,
  );

  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Audit Trail' }).click();
  const trail = page.getByRole('table');
  await expect(trail.getByRole('row', { name: /Changed special hours/ })).toContainText(
    'Special hours: 2026-12-24: 10:00–14:00',
  );
  await expect(
    trail.getByRole('row', { name: /Changed special hours/ }).getByRole('link', {
      name: downtown.name,
    }),
  ).toBeVisible();
  const price = trail.getByRole('row', { name: /Changed a seat price/ });
  await expect(price).toContainText('Price: $25.00');
  await expect(price).toContainText('Price: $31.00');
  await expect(price.getByRole('link', { name: 'Cockpit 1' })).toBeVisible();
  await expect(
    trail
      .getByRole('row', { name: /Added a page/ })
      .getByRole('link', { name: 'Race Night Rules' }),
  ).toHaveAttribute('href', `/pages/${pageId}`);
  await expect(trail.getByRole('row', { name: /Granted a permission/ }).first()).toContainText(
    'Permission: See reports',
  );
  await expect(
    trail.getByRole('row', { name: /Created a customer at the desk/ }).first(),
  ).toContainText('Deleted customer');
  // No codes, and no link without a name.
  await expect(trail).not.toContainText('staff.');
  await expect(trail).not.toContainText('calendar:');
  for (const link of await trail.getByRole('link').all())
    expect((await link.textContent())?.trim()).not.toBe('');
  await expectAccessible(page);
  await shot(page, 'audit-in-words');

  // Put the demo venue back for the journeys after this one.
  await request.patch(`/api/calendars/${seat.id}`, { headers: auth, data: { cost_cents: 2500 } });
  await request.patch(`/api/locations/${downtown.id}`, {
    headers: auth,
    data: { special_hours: {} },
  });
});
