import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildApp } from '../../app';
import type { App } from '../../deps';
import { announceAfterCommit, publishChange, storeChange } from '../../plugins/changes';
import { listen as listenTo, subscribed } from '../../test/event-stream';
import { until } from '../../test/until';

let t: TestApp;
let second: App;
let secondUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  // A second API instance on the same database, listening on a real port.
  second = await buildApp(t.deps);
  await second.listen({ port: 0, host: '127.0.0.1' });
  secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await second.close();
  await t.close();
});

const listen = (path: string, headers: Record<string, string> = {}) =>
  listenTo(`${secondUrl}${path}`, headers);

describe('the change feed', () => {
  it('delivers a change committed on one instance to a listener on another', async () => {
    const stream = await listen('/api/events?topics=boards,laps');
    await subscribed(stream);
    await t.db.transaction(async (tx) => publishChange(tx, 'laps', 7));
    await until(() => stream.events.length === 1);
    expect(stream.events[0].data).toMatchObject({ topic: 'laps', id: 7 });
    stream.close();
  });

  it('never delivers a change whose transaction rolled back', async () => {
    const stream = await listen('/api/events?topics=boards');
    await subscribed(stream);
    await t.db
      .transaction(async (tx) => {
        await publishChange(tx, 'boards', 1);
        throw new Error('roll back');
      })
      .catch(() => {});
    await publishChange(t.db, 'boards', 2);
    await until(() => stream.events.length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.events.map((e) => e.data.id)).toEqual([2]);
    stream.close();
  });

  it('resumes from Last-Event-ID with what was missed, on the asked topics only', async () => {
    await publishChange(t.db, 'settings');
    const first = await listen('/api/events?topics=boards');
    await subscribed(first);
    await publishChange(t.db, 'boards', 10);
    await until(() => first.events.length === 1);
    const last = first.events[0].id;
    first.close();
    // While away: two board changes and one the client did not ask for.
    await publishChange(t.db, 'boards', 11);
    await publishChange(t.db, 'pages', 3);
    await publishChange(t.db, 'boards', 12);
    const again = await listen('/api/events?topics=boards', { 'last-event-id': String(last) });
    await until(() => again.events.length === 2);
    expect(again.events.map((e) => e.data.id)).toEqual([11, 12]);
    again.close();
  });

  it('delivers a change announced after a later-numbered one', async () => {
    const stream = await listen('/api/events?topics=laps');
    await subscribed(stream);
    // Two laps: numbered in one order, committed and announced in the other (decision 0053).
    const earlier = await t.db.transaction((tx) => storeChange(tx, 'laps', 21));
    const later = await t.db.transaction((tx) => storeChange(tx, 'laps', 22));
    await announceAfterCommit(t.db, { changes: [later] });
    await announceAfterCommit(t.db, { changes: [earlier] });
    await until(() => stream.events.length === 2);
    expect(stream.events.map((e) => e.data.id)).toEqual([22, 21]);
    stream.close();
  });

  it('hears every change of a rush of writes announced at once, in the order asked', async () => {
    const stream = await listen('/api/events?topics=laps');
    await subscribed(stream);
    const changes = [];
    for (let i = 0; i < 30; i++) changes.push(await storeChange(t.db, 'laps', 100 + i));
    // Thirty writers announce at the same moment: they share a few NOTIFY statements.
    await Promise.all(changes.map((change) => announceAfterCommit(t.db, { changes: [change] })));
    await until(() => stream.events.length === 30);
    expect(stream.events.map((e) => e.data.id)).toEqual(changes.map((c) => c.id));
    stream.close();
  });

  it('keeps staff topics for staff, and names bad topics', async () => {
    const res = await t.app.inject({ url: '/api/events?topics=reservations' });
    expect(res.statusCode).toBe(403);
    const bad = await t.app.inject({ url: '/api/events?topics=everything' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('topics');
  });

  it('a draining instance (SIGTERM) ends its streams with a short retry, and one opened then at once', async () => {
    const app = await buildApp(t.deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/events?topics=boards`;
    try {
      const open = rawStream(url);
      await until(() => open.text.includes('event: hello'));
      app.draining.start();
      await until(() => open.ended);
      expect(open.text).toMatch(/retry: 250\n\n$/);
      // Opened on a kept-alive connection after the drain began: hello, then the hint, then the end.
      const late = rawStream(url);
      await until(() => late.ended);
      expect(late.text).toMatch(/event: hello\n[^]*retry: 250\n\n$/);
    } finally {
      await app.close();
    }
  });
});

/** A stream's raw text and whether the server ended it. */
function rawStream(url: string) {
  const state = { text: '', ended: false };
  http.get(url, (res) => {
    res.on('data', (d: Buffer) => (state.text += d.toString()));
    res.on('end', () => (state.ended = true));
  });
  return state;
}
