import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, test } from './fixtures';

/** The fake AC race the server's tests recorded (apps/server/src/test/fixtures/live-feeds). */
const RECORDING = fs.readFileSync(
  path.join(
    import.meta.dirname,
    '../../server/src/test/fixtures/live-feeds/ac-race-monza.feed.jsonl',
  ),
  'utf8',
);
const LAP_COMPLETED = 73;

type Tower = {
  final: boolean;
  session: { flag: string };
  rows: { position: number; number: number; driver: string; laps: number }[];
};

async function staffToken(request: APIRequestContext) {
  const res = await request.post('/api/auth/token', {
    data: { username: DEMO_STAFF.username, password: DEMO_STAFF.password },
  });
  return ((await res.json()) as { access: string }).access;
}

/** The recording up to its `laps`-th completed lap: the race as it stood then. */
function upToLap(laps: number): string {
  const [header, ...lines] = RECORDING.trim().split('\n');
  const kept: string[] = [];
  let seen = 0;
  for (const line of lines) {
    kept.push(line);
    const datagram = Buffer.from((JSON.parse(line) as { d: string }).d, 'base64');
    if (datagram[0] === LAP_COMPLETED && ++seen === laps) break;
  }
  return [header, ...kept].join('\n');
}

test('the live timing tower of a fake AC race on the wall and on a phone, frozen into the result at the flag', async ({
  page,
  browser,
  request,
}) => {
  const token = await staffToken(request);
  const auth = { Authorization: `Bearer ${token}` };
  const events = (await (await request.get('/api/races/events', { headers: auth })).json()) as {
    id: number;
  }[];
  const eventId = events[0].id;
  const tower = async () =>
    (
      (await (await request.get(`/api/races/events/${eventId}/timing`)).json()) as {
        tower: Tower | null;
      }
    ).tower;
  // A replay waits for the one before it to end (409 meanwhile).
  const replay = (recording: string) =>
    expect
      .poll(async () =>
        (
          await request.post(`/api/races/events/${eventId}/timing/replay`, {
            headers: auth,
            data: { recording, speed: 1 },
          })
        ).status(),
      )
      .toBe(202);

  // The wall at 1080p, before any session: it says so.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`/display/timing/${eventId}`);
  await expect(page.getByText('No session of this event has run yet')).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);

  // The race as it stood after its 12th lap: the wall shows the server's order.
  await replay(upToLap(12));
  await expect.poll(async () => (await tower())?.rows.reduce((n, r) => n + r.laps, 0)).toBe(12);
  const standing = (await tower())!;
  const rows = page.getByRole('row');
  await expect(page.getByText('Green flag')).toBeVisible();
  for (const row of standing.rows)
    await expect(rows.nth(row.position)).toContainText(
      new RegExp(`^\\s*${row.position}\\s*${row.number}\\s*${row.driver}`),
    );
  await expectAccessible(page);

  // The same tower on a phone, in one column.
  const phoneContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    reducedMotion: 'reduce',
  });
  const phone = await phoneContext.newPage();
  await phone.goto(`/timing/${eventId}`);
  const items = phone.getByRole('list', { name: 'Live timing' }).getByRole('listitem');
  await expect(items).toHaveCount(standing.rows.length);
  for (const row of standing.rows)
    await expect(items.nth(row.position - 1)).toContainText(row.driver);
  await expectAccessible(phone);

  // The whole race: at the flag both freeze into the result.
  await replay(RECORDING);
  await expect(page.getByText('Final result')).toBeVisible();
  await expect(phone.getByText('Final result')).toBeVisible();
  const result = (await tower())!;
  expect(result.final).toBe(true);
  expect(result.rows.map((r) => [r.number, r.laps])).toEqual([
    [3, 8],
    [1, 7],
    [2, 7],
  ]);
  for (const row of result.rows) {
    await expect(rows.nth(row.position)).toContainText(row.driver);
    await expect(items.nth(row.position - 1)).toContainText(row.driver);
  }
  await expect(rows.nth(1)).toContainText('Finished');

  // 4K: the same wall, bigger type, nothing cut off.
  await page.setViewportSize({ width: 3840, height: 2160 });
  await expect(rows.nth(3)).toBeInViewport();
  await expectAccessible(page);
  await phoneContext.close();
});
