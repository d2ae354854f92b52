import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';

const RESULTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../server/src/test/fixtures/ac-results',
);

test('staff import an ACC results file, make a rig key, and invalidate a lap', async ({ page }) => {
  await logIn(page, DEMO_STAFF);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Laps & Leaderboards' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Laps & Leaderboards' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Club Championship', exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('tab', { name: 'Import Results' }).click();
  await page.getByLabel('Results file').setInputFiles(path.join(RESULTS, 'acc-race.json'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText(/RACE at brands_hatch: 65 laps added/)).toBeVisible();
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(
    page.getByText(/RACE at brands_hatch was imported before: nothing added/),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'Rig Keys' }).click();
  // Seats are listed under their location's name.
  await expect(page.getByLabel('Seat').locator('optgroup').first()).toHaveAttribute(
    'label',
    'Paddock Downtown',
  );
  await page.getByLabel('Seat').selectOption({ label: 'Cockpit 1' });
  await page.getByRole('button', { name: 'New Key' }).click();
  await expect(page.getByText(/shown once/)).toBeVisible();
  await expect(page.locator('code').filter({ hasText: /^rig_/ })).toBeVisible();
  // A PC shows a pairing code (issue 43): staff pick it among the waiting PCs, choose the seat.
  const pc = await page.request.post('/api/rig_pairings', { data: { hostname: 'SIM-07' } });
  const { code } = await pc.json();
  await page.getByRole('button', { name: `SIM-07 · ${code}` }).click();
  await expect(page.getByLabel('Code on the PC')).toHaveValue(code);
  await page.getByLabel('Seat').selectOption({ label: 'Cockpit 2' });
  await page.getByRole('button', { name: 'Pair', exact: true }).click();
  await expect(page.getByText('SIM-07 is now the rig of Cockpit 2.')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('tab', { name: 'Lap Review' }).click();
  await page
    .getByRole('button', { name: /^Invalidate/ })
    .first()
    .click();
  // A dialog of the page's own (not the browser's prompt): a reason is required.
  const dialog = page.getByRole('dialog', { name: 'Invalidate Lap' });
  await dialog.getByRole('button', { name: 'Invalidate' }).click();
  await expect(dialog.getByText('Please give a reason.')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(/not valid\?$/).fill('Pit lane shortcut');
  await dialog.getByRole('button', { name: 'Invalidate' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: 'No: Pit lane shortcut' })).toBeVisible();
});

const SERVER_FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../server/src/test/fixtures',
);
const SHOTS = process.env.E2E_SCREENSHOTS;

test('staff import a Le Mans Ultimate and a RaceRoom file; tracks and cars say their sim', async ({
  page,
}) => {
  await logIn(page, DEMO_STAFF);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Laps & Leaderboards' }).click();
  await page.getByRole('tab', { name: 'Import Results' }).click();
  await page.getByLabel('An XML file is from').selectOption({ label: 'Le Mans Ultimate' });
  await page
    .getByLabel('Results file')
    .setInputFiles(path.join(SERVER_FIXTURES, 'lmu-results', 'made-here-race-with-steam-ids.xml'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText(/RACE at Autodromo Nazionale Monza: 4 laps added/)).toBeVisible();
  await page
    .getByLabel('Results file')
    .setInputFiles(path.join(SERVER_FIXTURES, 'r3e-results', 'qualify.and.race.json'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText(/QUALIFY, RACE at Portimao Circuit: 32 laps added/)).toBeVisible();
  await expectAccessible(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-other-sims.png`, fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/availability/tracks');
  const lmu = page.getByRole('row', { name: /Autodromo Nazionale Monza/ });
  await expect(lmu.getByText('Le Mans Ultimate')).toBeVisible();
  await expectAccessible(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/tracks-with-sim-phone.png`, fullPage: true });
  await page.goto('/availability/cars');
  const saleen = page.getByRole('row', { name: /Saleen S7R/ });
  await expect(saleen.getByText('RaceRoom')).toBeVisible();
  await expectAccessible(page);
});
