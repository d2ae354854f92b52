import { describe, expect, it } from 'vitest';
import { GenerationMemo } from './generation-memo';

/** A computation the test finishes when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('GenerationMemo', () => {
  it('keeps an answer for the next callers', async () => {
    const memo = new GenerationMemo<{ n: number }>({ max: 10, ttlMs: 60_000 });
    let computed = 0;
    const compute = async () => ({ n: ++computed });
    expect(await memo.get('a', compute)).toEqual({ n: 1 });
    expect(await memo.get('a', compute)).toEqual({ n: 1 });
    expect(await memo.get('b', compute)).toEqual({ n: 2 });
  });

  it('computes afresh after clear()', async () => {
    const memo = new GenerationMemo<{ n: number }>({ max: 10, ttlMs: 60_000 });
    await memo.get('a', async () => ({ n: 1 }));
    memo.clear();
    expect(await memo.get('a', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it('does not keep an answer whose computation began before clear()', async () => {
    const memo = new GenerationMemo<{ board: string }>({ max: 10, ttlMs: 60_000 });
    const slow = deferred<{ board: string }>();
    // A read that began before the lap's commit...
    const stale = memo.get('board', () => slow.promise);
    // ...the lap commits and the memo is told...
    memo.clear();
    // ...and the read finishes with what it saw before.
    slow.resolve({ board: 'before the lap' });
    expect(await stale).toEqual({ board: 'before the lap' });
    // The next reader (the screen told of the lap) gets the board with the lap.
    expect(await memo.get('board', async () => ({ board: 'with the lap' }))).toEqual({
      board: 'with the lap',
    });
  });
});

describe('GenerationMemo, callers meanwhile', () => {
  it('share the computation under way', async () => {
    const memo = new GenerationMemo<{ n: number }>({ max: 10, ttlMs: 60_000 });
    const slow = deferred<{ n: number }>();
    let computed = 0;
    const compute = () => {
      computed++;
      return slow.promise;
    };
    const first = memo.get('a', compute);
    const second = memo.get('a', compute);
    expect(memo.known('a')).toBeUndefined();
    slow.resolve({ n: 1 });
    expect(await first).toEqual({ n: 1 });
    expect(await second).toEqual({ n: 1 });
    expect(computed).toBe(1);
    expect(memo.known('a')).toEqual({ n: 1 });
  });

  it('do not share one that began before clear()', async () => {
    const memo = new GenerationMemo<{ board: string }>({ max: 10, ttlMs: 60_000 });
    const slow = deferred<{ board: string }>();
    const stale = memo.get('board', () => slow.promise);
    memo.clear();
    const fresh = memo.get('board', async () => ({ board: 'with the lap' }));
    slow.resolve({ board: 'before the lap' });
    expect(await stale).toEqual({ board: 'before the lap' });
    expect(await fresh).toEqual({ board: 'with the lap' });
    expect(memo.known('board')).toEqual({ board: 'with the lap' });
  });

  it('share a failure but do not keep it', async () => {
    const memo = new GenerationMemo<{ n: number }>({ max: 10, ttlMs: 60_000 });
    const failing = memo.get('a', async () => {
      throw new Error('gone');
    });
    await expect(failing).rejects.toThrow('gone');
    expect(await memo.get('a', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });
});
