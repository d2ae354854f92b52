import { describe, expect, it } from 'vitest';
import { currencyCode, formatMoney, minorUnitsPerMajor } from '@paddock/contract/money';

// The one money formatter server and web share (docs/decisions/0039).
describe('formatMoney', () => {
  it('formats minor units in the currency given, dollars by default', () => {
    expect(formatMoney(1250)).toBe('$12.50');
    expect(formatMoney(0, 'USD')).toBe('$0.00');
    expect(formatMoney(-505, 'USD')).toBe('-$5.05');
    expect(formatMoney(1250, 'GBP')).toBe('£12.50');
    expect(formatMoney(123456, 'EUR', 'de-DE')).toBe('1.234,56\u00a0€');
  });

  it('knows currencies without minor units', () => {
    expect(minorUnitsPerMajor('JPY')).toBe(1);
    expect(formatMoney(1250, 'JPY')).toBe('¥1,250');
  });

  it('accepts only ISO 4217 codes', () => {
    expect(currencyCode.safeParse('GBP').success).toBe(true);
    expect(currencyCode.safeParse('gbp').success).toBe(false);
    expect(currencyCode.safeParse('XYZ').success).toBe(false);
  });
});
