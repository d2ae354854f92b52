import { expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, shot, staffWith } from './desk-support';

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', TABLET],
] as const) {
  test(`${device}: staff edit a board and delete it`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const keeper = await staffWith(request, ['leaderboards.change_board']);
    const name = `Board ${device} ${Date.now()}`;
    await logIn(page, keeper);
    await page.goto('/admin/laps');
    const boards = page.getByRole('region', { name: 'Boards' });
    await boards.getByLabel('Name', { exact: true }).fill(name);
    await boards.getByLabel('Kind').selectOption('POINTS');
    await boards.getByRole('button', { name: 'Create Board' }).click();
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name, exact: true }) });
    await expect(row).toContainText('All time');

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await edit.getByLabel('Name', { exact: true }).fill(`${name} weekly`);
    await edit.getByLabel('Last … days').fill('10');
    await expectAccessible(page);
    await shot(page, `boards-edit-${device}`);
    await edit.getByRole('button', { name: 'Save Board' }).click();
    await expect(edit).toHaveCount(0);
    const renamed = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: `${name} weekly`, exact: true }) });
    await expect(renamed).toContainText('Last 10 days');
    await expect(row).toHaveCount(0);

    await renamed.getByRole('button', { name: `Delete ${name} weekly` }).click();
    const ask = page.getByRole('dialog', { name: `Delete “${name} weekly”?` });
    await expectAccessible(page);
    await shot(page, `boards-delete-${device}`);
    await ask.getByRole('button', { name: 'Delete Board' }).click();
    await expect(ask).toHaveCount(0);
    await expect(renamed).toHaveCount(0);
    await expect(page.getByText(`Deleted the board ${name} weekly.`)).toBeVisible();
  });
}
