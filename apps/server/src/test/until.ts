/**
 * Waits until `check` gives something truthy and returns it, polling every 25 ms; throws naming
 * `what` after `ms`. The bound is for liveness, not speed: CI runs these suites on a loaded
 * 2-core machine, where 3 s was once not enough for a socket's first message (session 9). The
 * one such helper of the server's tests (issue 46).
 */
export async function until<T>(
  check: () => T | Promise<T>,
  options: number | { ms?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const { ms = 10_000, what = 'a condition' } =
    typeof options === 'number' ? { ms: options } : options;
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
