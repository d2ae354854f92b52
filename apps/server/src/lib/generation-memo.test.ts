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
