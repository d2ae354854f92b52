import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollToHash } from './scroll-to-hash';

describe('scrollToHash (spec §2)', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('waits for a target that renders late, polling every 50 ms', () => {
    vi.useFakeTimers();
    const scrolled = vi.fn();
    scrollToHash('#late');
    vi.advanceTimersByTime(300);
    const target = document.createElement('div');
    target.id = 'late';
    target.scrollIntoView = scrolled;
    document.body.append(target);
    expect(scrolled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(scrolled).toHaveBeenCalledTimes(1);
  });

  it('gives up after 1 second', () => {
    vi.useFakeTimers();
    const scrolled = vi.fn();
    scrollToHash('#never');
    vi.advanceTimersByTime(1_050);
    const target = document.createElement('div');
    target.id = 'never';
    target.scrollIntoView = scrolled;
    document.body.append(target);
    vi.advanceTimersByTime(1_000);
    expect(scrolled).not.toHaveBeenCalled();
  });
});
