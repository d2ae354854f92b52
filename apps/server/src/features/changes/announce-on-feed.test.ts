import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { connect, type Database } from '../../db/client';
import {
  announceAfterCommit,
  announceThrough,
  ChangeFeed,
  storeChange,
  type Change,
} from '../../plugins/changes';
import { until } from '../../test/until';

// Announcements after a commit ride on the change feed's barrier query when the app said which
// feed listens for the database (decision 0063), and go on the database's own pool when that
// feed is down.

let t: TestApp;
let listener: ChangeFeed;
const heard: Change[] = [];
beforeAll(async () => {
  t = await createTestApp();
  listener = new ChangeFeed(t.deps.database.url);
  listener.subscribe((change) => heard.push(change));
  await listener.start();
});
afterAll(async () => {
  await listener.stop();
  await t.close();
});

async function stored(count: number, from: number) {
  const changes: Change[] = [];
  for (let i = 0; i < count; i++) changes.push(await storeChange(t.db, 'laps', from + i));
  return changes;
}

describe('announcements on the change feed', () => {
  let writer: Database;
  let feed: ChangeFeed;
  beforeAll(async () => {
    // A database handle of its own, so its pool shows whether anything went through it.
    writer = connect(t.deps.database.url, 2);
    feed = new ChangeFeed(t.deps.database.url);
    await feed.start();
    announceThrough(writer.db, feed);
  });
  afterAll(async () => {
    await feed.stop();
    await writer.close();
  });

  it('go on the feed’s connection, every one heard elsewhere, in the order asked', async () => {
    const changes = await stored(30, 300);
    heard.length = 0;
    await Promise.all(
      changes.map((change) => announceAfterCommit(writer.db, { changes: [change] })),
    );
    // Answered only after announced: the other listener's next barrier finds them all.
    expect(await listener.sync()).toBe(true);
    expect(heard.map((c) => c.id)).toEqual(changes.map((c) => c.id));
    expect(writer.pool.totalCount).toBe(0);
  });

  it('go on the pool once the feed is down', async () => {
    await feed.stop();
    const changes = await stored(3, 400);
    heard.length = 0;
    await Promise.all(
      changes.map((change) => announceAfterCommit(writer.db, { changes: [change] })),
    );
    await until(() => heard.length === 3);
    expect(heard.map((c) => c.id)).toEqual([400, 401, 402]);
    expect(writer.pool.totalCount).toBeGreaterThan(0);
  });
});
