import { DateTime } from 'luxon';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { OWNER, TABLET, apiToken, placeWithSeats, shot, staffWith } from './desk-support';

/**
 * Issue 30, decision 0101: a party of four set up in the morning for the evening. Until its
 * time the seats run their own events (the walk-in day goes on); at its time they switch.
 */
for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', TABLET],
] as const) {
  test(`${device}: a party of four set up in the morning for the evening`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const tag = `${device} ${Date.now()}`;
    const names = ['Rig 1', 'Rig 2', 'Rig 3', 'Rig 4'];
    const { location, seats, timezone } = await placeWithSeats(request, tag, names);
    const racer = await staffWith(request, ['leaderboards.can_manage_race_events']);
    const owner = { Authorization: `Bearer ${await apiToken(request, OWNER)}` };
    const eventOf = async (seat: number) =>
      ((await (await request.get(`/api/calendars/${seat}`)).json()) as { event: number }).event;
    const own = await Promise.all(seats.map(eventOf));

    await logIn(page, racer);
    await page.goto(`/admin/parties?location=${location}`);
    let clicks = 0;
    // The next 19:00 on the venue's clock (today's, unless it has passed).
    const venueNow = DateTime.now().setZone(timezone);
    let evening = venueNow.set({ hour: 19, minute: 0, second: 0, millisecond: 0 });
    if (evening <= venueNow) evening = evening.plus({ days: 1 });
    for (const name of names) {
      await page.getByLabel(`${name} ${tag}`).check();
      clicks += 1;
    }
    await page.getByLabel('Starts', { exact: true }).fill(evening.toFormat("yyyy-LL-dd'T'HH:mm"));
    clicks += 1; // the time: one tap on the field, then the picker (or typing)
    await expectAccessible(page);
    await shot(page, `party-later-form-${device}`);
    await page.getByRole('button', { name: 'Create Party', exact: true }).click();
    clicks += 1;
    const partyName = `Rig 1 ${tag}'s Party`;
    const card = page.getByRole('region', { name: partyName });
    await expect(card.getByRole('listitem')).toHaveCount(4);
    await expect(card.getByText('Waiting')).toBeVisible();
    await expect(card).toContainText(`${evening.toFormat('h:mm a')} ${evening.offsetNameShort}`);
    console.log(`[measure] ${device}: a party of four set up for the evening in ${clicks} steps`);
    expect(clicks).toBeLessThanOrEqual(6);
    await expectAccessible(page);
    await shot(page, `party-later-waiting-${device}`);
    if (device === 'tablet') {
      // The same screen on a phone, then back to the counter's tablet.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(card.getByText('Waiting')).toBeVisible();
      await expectAccessible(page);
      await shot(page, 'party-later-waiting-phone');
      await page.setViewportSize(viewport);
    }

    // The seats still run their own events; the launcher lists the party under Later.
    expect(await Promise.all(seats.map(eventOf))).toEqual(own);
    await page.goto(`/admin/launcher?location=${location}`);
    const later = page.getByRole('region', { name: 'Later' });
    await expect(later).toContainText(partyName);
    await expect(later).toContainText(`Rig 4 ${tag}`);
    await expect(page.getByRole('region', { name: 'Parties' })).toContainText(
      'No parties right now.',
    );
    await expectAccessible(page);
    await shot(page, `party-later-launcher-${device}`);

    // The start moves up: now on the desktop, a minute ahead on the tablet (the timer's turn).
    await page.goto(`/admin/parties?location=${location}`);
    await card.getByRole('button', { name: `Change Start of ${partyName}` }).click();
    if (device === 'desktop') {
      await card.getByRole('button', { name: 'Now' }).click();
    } else {
      const soon = DateTime.now().setZone(timezone).plus({ seconds: 75 }).startOf('minute');
      await card.getByLabel(`New start of ${partyName}`).fill(soon.toFormat("yyyy-LL-dd'T'HH:mm"));
    }
    await card.getByRole('button', { name: 'Save Start' }).click();
    await expect(page.getByText(`Changed the start of ${partyName}.`)).toBeVisible();
    // No reload: the parties feed tells the screen when the party has started.
    await expect(card.getByText('Waiting')).toHaveCount(0, { timeout: 100_000 });
    const parties = (await (
      await request.get(`/api/races/parties?location=${location}`, { headers: owner })
    ).json()) as { name: string; host_event: number; started: boolean }[];
    const party = parties.find((p) => p.name === partyName)!;
    expect(party.started).toBe(true);
    expect(await Promise.all(seats.map(eventOf))).toEqual(seats.map(() => party.host_event));
    await page.goto(`/admin/launcher?location=${location}`);
    await expect(page.getByRole('article', { name: partyName })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Later' })).toHaveCount(0);
    await shot(page, `party-later-started-${device}`);
  });
}
