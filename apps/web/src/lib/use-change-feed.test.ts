import { describe, expect, it } from 'vitest';
import { BACKOFF, backoffDelay, parseSse } from './use-change-feed';

describe('reconnect backoff', () => {
  it('doubles from 1 s, never waits past 30 s, and jitters by a quarter', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((a) => backoffDelay(a, middle))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(0, () => 0)).toBe(750);
    expect(backoffDelay(20, () => 0.999999)).toBe(BACKOFF.maxMs);
    expect(backoffDelay(20, () => 0)).toBeGreaterThanOrEqual(BACKOFF.maxMs * 0.75);
  });
});

describe('server-sent event frames', () => {
  it('reads named frames with ids and data, skips comments, keeps the unfinished rest', () => {
    const { frames, rest } = parseSse(
      'retry: 2000\n\nevent: hello\ndata: {"build":null}\n\n: ping\n\nid: 7\nevent: change\ndata: {"seq":7}\n\nid: 8\nevent: cha',
    );
    expect(frames).toEqual([
      { event: 'hello', data: '{"build":null}', id: null },
      { event: 'change', data: '{"seq":7}', id: '7' },
    ]);
    expect(rest).toBe('id: 8\nevent: cha');
  });
});
