/**
 * Money is integer cents everywhere; this is the only place that multiplies by a rate,
 * rounds, or splits an amount. Rates arrive as decimal text (PostgreSQL numeric, e.g. "8.875").
 */

const RATE_SCALE = 1000n; // rates are kept to three decimals (numeric(6,3))

/** A percentage as text or number → integer thousandths of a percent ("8.875" → 8875n). */
export function parseRatePercent(rate: string | number): bigint {
  const text = typeof rate === 'number' ? rate.toFixed(3) : rate.trim();
  const match = /^(\d+)(?:\.(\d{1,3}))?$/.exec(text);
  if (!match) throw new RangeError(`Not a percentage: ${rate}`);
  const whole = BigInt(match[1]);
  const fraction = BigInt((match[2] ?? '').padEnd(3, '0'));
  return whole * RATE_SCALE + fraction;
}

/** Integer division rounding halves up (away from zero for the non-negative amounts we handle). */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  if (numerator < 0n) return -divideHalfUp(-numerator, denominator);
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** `cents × rate%`, rounded half up: 1000 cents at 8.875% → 89 (88.75 rounds up). */
export function percentOfCents(cents: number, ratePercent: string | number): number {
  assertCents(cents);
  const rate = parseRatePercent(ratePercent);
  return Number(divideHalfUp(BigInt(cents) * rate, 100n * RATE_SCALE));
}

/**
 * Splits `total` across `weights` in proportion, in whole cents, so the parts add up exactly
 * (largest remainder; ties go to the earlier part). All weights zero → an even split.
 */
export function allocateCents(total: number, weights: number[]): number[] {
  assertCents(total);
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, b) => a + b, 0);
  const w = sum > 0 ? weights : weights.map(() => 1);
  const weightSum = BigInt(sum > 0 ? sum : weights.length);
  const exact = w.map((x) => BigInt(total) * BigInt(x));
  const parts = exact.map((e) => e / weightSum);
  let left = total - parts.reduce((a, b) => a + Number(b), 0);
  const order = exact
    .map((e, i) => ({ i, rest: e % weightSum }))
    .sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] += 1n;
    left -= 1;
  }
  return parts.map(Number);
}

/** `total × part / whole`, rounded down (0 of nothing): a part that must never exceed its value. */
export function shareDown(total: number, part: number, whole: number): number {
  assertCents(total);
  assertCents(part);
  if (whole <= 0) return 0;
  return Number((BigInt(total) * BigInt(part)) / BigInt(whole));
}

function assertCents(cents: number) {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new RangeError(`Not an amount of cents: ${cents}`);
}
