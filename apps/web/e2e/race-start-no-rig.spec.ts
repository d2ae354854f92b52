import { WebSocket } from 'ws';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { OWNER, TABLET, apiToken, placeWithSeats, shot, staffWith } from './desk-support';

type Page<T> = T[] | { results: T[] };
const rows = <T>(answer: Page<T>) => (Array.isArray(answer) ? answer : answer.results);

/**
 * Issue 41: Start with no rig agent connected. On a tablet at the desk, the launcher says which
 * seats have no rig before Start, and after it names the seats it reached and those it did not:
 * never "sent" for a seat with no rig. A rig that goes away shows at once.
 */
test('tablet: Start names the seats with no rig connected, before and after', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize(TABLET);
  const tag = `${Date.now() % 1_000_000}`;
  const place = await placeWithSeats(request, tag, ['Norig A', 'Norig B']);
  const [seatA, seatB] = place.seats;
  const nameA = `Norig A ${tag}`;
  const nameB = `Norig B ${tag}`;
  const auth = { Authorization: `Bearer ${await apiToken(request, OWNER)}` };

  // A party of the two seats, with a track and a car, so Start is allowed.
  const party = (await (
    await request.post('/api/races/parties/host', {
      headers: auth,
      data: { calendar: seatA, name: `No Rig Night ${tag}` },
    })
  ).json()) as { id: number; host_event: number; name: string };
  expect(
    (
      await request.post('/api/races/parties/members', {
        headers: auth,
        data: { party: party.id, calendar: seatB },
      })
    ).status(),
  ).toBe(201);
  const track = rows((await (await request.get('/api/tracks')).json()) as Page<{ id: number }>)[0];
  const car = rows((await (await request.get('/api/cars')).json()) as Page<{ id: number }>)[0];
  expect(
    (
      await request.patch(`/api/races/events/${party.host_event}`, {
        headers: auth,
        data: { track: track.id, cars: [car.id] },
      })
    ).status(),
  ).toBe(200);

  // Seat A's rig agent is connected (with its own rig key); seat B's is not.
  const key = (await (
    await request.post('/api/rig_keys', { headers: auth, data: { calendar: seatA } })
  ).json()) as { key: string };
  const heard: string[] = [];
  const rigA = new WebSocket(
    `${baseURL!.replace(/^http/, 'ws')}/ws/launcher/events/${party.host_event}/`,
    { headers: { Authorization: `Rig ${key.key}` } },
  );
  rigA.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: string; signal?: string };
    if (m.type === 'signal') heard.push(m.signal!);
  });
  await new Promise<void>((resolve, reject) => {
    rigA.once('open', () => resolve());
    rigA.once('error', reject);
  });

  try {
    const desk = await staffWith(request, ['leaderboards.can_manage_race_events']);
    await logIn(page, desk);
    await page.goto(`/admin/launcher?location=${place.location}`);
    const card = page.getByRole('article', { name: party.name });
    await expect(card.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
    const rowOf = (name: string) => card.getByRole('listitem').filter({ hasText: name });

    // Before Start: B says so, A does not; the party's line names B.
    await expect(rowOf(nameB)).toContainText('No rig connected');
    await expect(rowOf(nameA)).toContainText('Rig connected');
    await expect(rowOf(nameA)).not.toContainText('No rig connected');
    await expect(card).toContainText(`No rig connected: ${nameB}. Start does not reach it.`);
    await expectAccessible(page);
    await shot(page, 'race-start-no-rig-before-tablet');

    // Start (one tap): A's rig hears it; B is named as not reached, never "sent".
    await card.getByRole('button', { name: `Start ${party.name}`, exact: true }).click();
    const answer = `Start sent to ${nameA}. Not sent to ${nameB}: no rig connected.`;
    await expect(card.getByText(answer)).toBeVisible();
    await expect.poll(() => heard).toEqual(['SESSION_START']);
    await expect(rowOf(nameB).locator('[data-state]')).toHaveText('State: None');
    await expect(page.getByText(`Start sent to ${party.name}.`)).toHaveCount(0);
    await expectAccessible(page);
    await shot(page, 'race-start-no-rig-after-tablet');

    // A's rig goes away: its seat shows it at once, and Start now reaches nobody.
    rigA.close();
    await expect(rowOf(nameA)).toContainText('No rig connected');
    await expect(card).toContainText(
      `No rig connected: ${nameA}, ${nameB}. Start does not reach them.`,
    );
    await card.getByRole('button', { name: `Start ${party.name}`, exact: true }).click();
    await expect(
      card.getByText(`Start not sent: no rig connected at ${nameA}, ${nameB}.`),
    ).toBeVisible();
    await expectAccessible(page);
  } finally {
    rigA.close();
    await request.delete(`/api/races/parties/${party.id}`, { headers: auth });
  }
});
