import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { fillCard } from './booking-support';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_STAFF } from './fixtures';

/**
 * A visitor sent to signup by Book (or a widget's time) signs up in the three steps with a
 * 4242 card; the last step returns them to the redirect they came with.
 */
export async function signUpWithCard(page: Page, tag: string) {
  const email = `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await expect(page).toHaveURL(/\/signup\?redirect=/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('heading', { name: 'Your Details' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('visitor-pass-1');
  await page.getByLabel('Confirm Password').fill('visitor-pass-1');
  await page.getByLabel('First Name').fill('Vera');
  await page.getByLabel('Last Name').fill('Visitor');
  await page.getByLabel('Phone').fill('(415) 555-0199');
  await page.getByLabel('Zip Code').fill('94107');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Method', level: 2 })).toBeVisible();
  await fillCard(page, '4242 4242 4242 4242', 'Add Payment Method');
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  await page.getByRole('button', { name: 'Next Step' }).click();
  return email;
}

/** Sets venue settings as the demo staff account (it holds venue.change_settings). */
export async function setVenueSettings(request: APIRequestContext, values: object) {
  const login = await request.post('/api/auth/token', { data: DEMO_STAFF });
  const { access } = (await login.json()) as { access: string };
  const saved = await request.patch('/api/settings', {
    data: values,
    headers: { Authorization: `Bearer ${access}` },
  });
  expect(saved.ok()).toBe(true);
}
