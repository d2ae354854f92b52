import { expect, expectAccessible, logIn, openMainNav, test } from './fixtures';
import { TABLET, shot, staffWith } from './desk-support';

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', TABLET],
] as const) {
  test(`${device}: staff who may read the outbox find a customer's login link there`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const email = `outbox-${device}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    expect(
      (await request.post('/api/users', { data: { email, password: 'a-password-1' } })).ok(),
    ).toBe(true);
    const forgot = await request.post('/api/users/forgot_password', { data: { email } });
    expect(forgot.ok()).toBe(true);

    const reader = await staffWith(request, ['outbox.view_message']);
    await logIn(page, reader);
    await openMainNav(page);
    await page.getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('link', { name: 'Outbox', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();

    const row = page.getByRole('row').filter({ hasText: email }).first();
    await expect(row).toBeVisible();
    // Nothing was sent: no mail server is set in the journeys (decision 0115).
    await expect(row).toContainText('Kept (no mail server)');
    await expect(row).not.toContainText(/\bSent\b/);
    // The time is in the venue's zone, with the zone's name.
    await expect(row.locator('time')).toHaveText(/, \d{1,2}:\d\d [AP]M \S+$/);
    // No body in the list: the login link shows only once the mail is opened.
    await expect(page.getByText('/login?token=')).toHaveCount(0);
    await expectAccessible(page);
    await shot(page, `outbox-list-${device}`);

    await row.getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(email, { exact: true })).toBeVisible();
    await expect(dialog.getByLabel('Message text')).toContainText('/login?token=');
    await dialog.getByRole('tab', { name: 'HTML' }).click();
    await expect(dialog.getByLabel('Message HTML')).toContainText('/login?token=');
    await expectAccessible(page);
    await shot(page, `outbox-message-${device}`);
    // Resend keeps a new copy and says so; the list shows it first.
    await dialog.getByRole('button', { name: 'Resend' }).click();
    await expect(dialog.getByRole('status')).toContainText(
      `Kept a new copy of “${await dialog.getByRole('heading').innerText()}” to ${email} in the outbox: no mail server is set, so it was not sent.`,
    );
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(2);
  });
}

test('staff without the outbox permission get no menu entry and a 403 page', async ({
  page,
  request,
}) => {
  const desk = await staffWith(request, ['reservations.change_reservation']);
  await logIn(page, desk);
  await openMainNav(page);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByRole('link', { name: 'Daily Planner' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Outbox', exact: true })).toHaveCount(0);
  await page.goto('/admin/outbox');
  await expect(
    page.getByRole('heading', { level: 1, name: 'You do not have access to this page' }),
  ).toBeVisible();
  await expect(page.getByText('Read the mail outbox')).toBeVisible();
  await expectAccessible(page);
});
