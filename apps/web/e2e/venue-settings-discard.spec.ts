import { expect, logIn, test } from './fixtures';
import { OWNER, shot } from './desk-support';

test('Discard Changes in Venue Settings puts the saved values back, and a later Save keeps them', async ({
  page,
}) => {
  await logIn(page, OWNER);
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Venue Settings' })).toBeVisible();
  const clubName = page.getByLabel('Club name');
  const discount = page.getByLabel('Member discount (%)');
  const savedName = await clubName.inputValue();
  const savedDiscount = await discount.inputValue();

  await clubName.fill('Discarded Club');
  await discount.fill('55');
  await page.getByRole('button', { name: 'Discard Changes' }).click();
  await expect(clubName).toHaveValue(savedName);
  await expect(discount).toHaveValue(savedDiscount);
  await expect(page.getByRole('button', { name: 'Discard Changes' })).toBeDisabled();
  await shot(page, 'settings-after-discard');

  // A later Save of another field stores that field only, not what was discarded.
  const company = page.getByLabel('Company name');
  const savedCompany = await company.inputValue();
  await company.fill(`${savedCompany} Arena`);
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The venue settings have been saved.')).toBeVisible();
  await page.reload();
  await expect(company).toHaveValue(`${savedCompany} Arena`);
  await expect(clubName).toHaveValue(savedName);
  await expect(discount).toHaveValue(savedDiscount);

  // Put the company name back for the journeys after this one.
  await company.fill(savedCompany);
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The venue settings have been saved.')).toBeVisible();
});
