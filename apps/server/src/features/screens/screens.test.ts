import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { listen } from '../../test/event-stream';
import { until } from '../../test/until';
import { buildApp } from '../../app';
import type { App } from '../../deps';
import { screens } from '../../db/schema/screens';
import { SCREENS_MAX, readBuildId } from './screens.service';

let t: TestApp;
let served: App;
let url: string;
let staff: CreatedUser;
let dist: string;
const BUILD = '/assets/index-AbC123.js';

beforeAll(async () => {
  t = await createTestApp();
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-dist-'));
  await fs.writeFile(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><script type="module" crossorigin src="${BUILD}"></script></head></html>`,
  );
  // An instance serving a built web app, so it has a build id.
  served = await buildApp({ ...t.deps, webDist: dist });
  await served.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}`;
  staff = await createUser(t, { isStaff: true, permissions: ['screens.change_screen'] });
});
afterAll(async () => {
  await served.close();
  await t.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const screenList = async () =>
  (await t.app.inject({ url: '/api/screens', headers: bearer(staff.token) })).json() as {
    build: string | null;
    results: { id: number; name: string; path: string; build: string; online: boolean }[];
  };

describe('wall screens', () => {
  it('reads the build from the entry script of index.html', () => {
    expect(readBuildId(dist)).toBe(BUILD);
    expect(readBuildId(undefined)).toBeNull();
    expect(readBuildId('/nowhere')).toBeNull();
  });

  it('a named screen checks in, is listed online, and hears its own reload and reload-all', async () => {
    const query = new URLSearchParams({
      topics: 'boards,screens',
      screen: 'Bar TV',
      path: '/display/3?itemsToShow=10',
      build: '/assets/index-Old.js',
    });
    const stream = await listen(`${url}/api/events?${query}`);
    await until(() => stream.signals.some((s) => s.event === 'hello'));
    const hello = stream.signals.find((s) => s.event === 'hello')?.data as {
      build: string;
      screen_id: number;
    };
    expect(hello.build).toBe(BUILD);
    expect(hello.screen_id).toBeGreaterThan(0);

    const list = await screenList();
    const bar = list.results.find((s) => s.name === 'Bar TV');
    expect(bar).toMatchObject({
      id: hello.screen_id,
      path: '/display/3?itemsToShow=10',
      build: '/assets/index-Old.js',
      online: true,
    });

    const one = await t.app.inject({
      method: 'POST',
      url: '/api/screens/reload',
      headers: bearer(staff.token),
      payload: { screen_id: hello.screen_id },
    });
    expect(one.statusCode).toBe(202);
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/screens/reload',
      headers: bearer(staff.token),
      payload: {},
    });
    expect(all.statusCode).toBe(202);
    await until(() => stream.events.length === 2);
    expect(stream.events.map((e) => ({ topic: e.data.topic, id: e.data.id }))).toEqual([
      { topic: 'screens', id: hello.screen_id },
      { topic: 'screens', id: null },
    ]);
    stream.close();
  });

  it('names bad screen names, paths and ids', async () => {
    const bad = await t.app.inject({ url: '/api/events?topics=boards&screen=%3Cscript%3E' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('screen');
    const badPath = await t.app.inject({ url: '/api/events?topics=boards&path=http://x' });
    expect(badPath.json()).toHaveProperty('path');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/screens/reload',
      headers: bearer(staff.token),
      payload: { screen_id: 999999 },
    });
    expect(missing.statusCode).toBe(404);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/screens/reload',
      headers: bearer(staff.token),
      payload: { screen_id: 'all' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toHaveProperty('screen_id');
  });

  it('forgets a screen, and keeps the list bounded against anyone naming screens', async () => {
    const { results } = await screenList();
    const forget = await t.app.inject({
      method: 'DELETE',
      url: `/api/screens/${results[0].id}`,
      headers: bearer(staff.token),
    });
    expect(forget.statusCode).toBe(204);
    expect((await screenList()).results).toHaveLength(results.length - 1);

    // A full table of screens, one of them silent for a month.
    await t.db.insert(screens).values(
      Array.from({ length: SCREENS_MAX }, (_, i) => ({
        name: `Screen ${i}`,
        lastSeen: i === 0 ? new Date(Date.now() - 30 * 86_400_000) : new Date(),
      })),
    );
    const newcomer = await listen(`${url}/api/events?topics=boards&screen=Newcomer`);
    await until(() => newcomer.signals.some((s) => s.event === 'hello'));
    newcomer.close();
    const names = (await screenList()).results.map((s) => s.name);
    expect(names).toContain('Newcomer');
    expect(names).not.toContain('Screen 0');
    expect(names).toHaveLength(SCREENS_MAX);

    // Nobody silent to make room: the stream works, the screen is not listed.
    const crowd = await listen(`${url}/api/events?topics=boards&screen=Crowd`);
    await until(() => crowd.signals.some((s) => s.event === 'hello'));
    expect(crowd.signals[0].data).toMatchObject({ screen_id: null });
    crowd.close();
    const [{ count }] = await t.db.select({ count: sql<number>`count(*)::int` }).from(screens);
    expect(count).toBe(SCREENS_MAX);
  });
});

describe('screen paths', () => {
  it('refuses paths that would leave the site when staff open them', async () => {
    for (const path of ['//evil.example', '/\\evil.example', 'https://evil.example']) {
      const res = await t.app.inject({
        url: `/api/events?topics=boards&path=${encodeURIComponent(path)}`,
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toHaveProperty('path');
    }
  });
});
