import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../test/test-app';
import { loadOrCreateSecret } from './secret';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('loadOrCreateSecret', () => {
  it('gives every instance on one database the same generated secret', async () => {
    const [dirA, dirB] = await Promise.all([
      fs.mkdtemp(path.join(os.tmpdir(), 'paddock-a-')),
      fs.mkdtemp(path.join(os.tmpdir(), 'paddock-b-')),
    ]);
    const [a, b] = await Promise.all([
      loadOrCreateSecret(t.db, dirA, undefined),
      loadOrCreateSecret(t.db, dirB, undefined),
    ]);
    expect(a).toHaveLength(64);
    expect(b).toBe(a);
    expect(await fs.readdir(dirA)).toEqual([]);
    expect(await loadOrCreateSecret(t.db, dirA, 'x'.repeat(40))).toBe('x'.repeat(40));
  });
});
