import { expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, placeWithSeats, shot, staffWith } from './desk-support';

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', TABLET],
] as const) {
  test(`${device}: race staff rename a party and delete a preset`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const tag = `${device} ${Date.now()}`;
    const { location } = await placeWithSeats(request, tag, ['Rig A', 'Rig B']);
    const racer = await staffWith(request, ['leaderboards.can_manage_race_events']);
    await logIn(page, racer);
    await page.goto(`/admin/parties?location=${location}`);
    await page.getByLabel(`Rig A ${tag}`).check();
    await page.getByLabel(`Rig B ${tag}`).check();
    await page.getByRole('button', { name: 'Create Party', exact: true }).click();
    const first = page.getByRole('region', { name: `Rig A ${tag}'s Party` });
    await expect(first.getByRole('listitem')).toHaveCount(2);

    // Rename: Rename, type, Save Name.
    await first.getByRole('button', { name: `Rename Rig A ${tag}'s Party` }).click();
    const field = page.getByLabel(`New name of Rig A ${tag}'s Party`);
    await field.fill(`Evening ${tag}`);
    await expectAccessible(page);
    await shot(page, `party-rename-${device}`);
    await page.getByRole('button', { name: 'Save Name' }).click();
    const card = page.getByRole('region', { name: `Evening ${tag}` });
    await expect(card.getByRole('heading', { name: `Evening ${tag}` })).toBeVisible();
    await expect(card.getByRole('listitem')).toHaveCount(2);
    await expect(first).toHaveCount(0);

    // A preset saved from the party's event, then deleted.
    await card.getByRole('button', { name: `Edit Event of Evening ${tag}` }).click();
    const modal = page.getByRole('dialog', { name: `Edit Event: Evening ${tag}` });
    await modal.getByLabel('Save as a preset').fill(`Preset ${tag}`);
    await modal.getByRole('button', { name: 'Save Preset' }).click();
    await expect(page.getByText(`Saved the preset Preset ${tag}.`)).toBeVisible();
    await modal.getByLabel('Load a preset').selectOption({ label: `Preset ${tag}` });
    await modal.getByRole('button', { name: 'Delete the chosen preset' }).click();
    const ask = modal.getByRole('group', { name: 'Delete the preset' });
    await expect(ask).toContainText(`Delete the preset Preset ${tag}?`);
    await expectAccessible(page);
    await shot(page, `preset-delete-${device}`);
    await ask.getByRole('button', { name: 'Delete Preset' }).click();
    await expect(page.getByText(`Deleted the preset Preset ${tag}.`)).toBeVisible();
    await expect(
      modal.getByLabel('Load a preset').locator('option', { hasText: `Preset ${tag}` }),
    ).toHaveCount(0);
  });
}
