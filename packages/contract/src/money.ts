import { z } from 'zod';

/** What a location prices in when nobody chose (and what every amount was before 0039). */
export const DEFAULT_CURRENCY = 'USD';

const KNOWN = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code the runtime can format, e.g. "USD", "GBP" (upper case, three letters). */
export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter ISO 4217 currency code, such as USD or GBP.')
  .refine((code) => KNOWN.has(code), 'Not an ISO 4217 currency code.');
export type CurrencyCode = z.infer<typeof currencyCode>;

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, f);
  }
  return f;
}

/** How many minor units make one major unit: 100 for USD and GBP, 1 for JPY. */
export function minorUnitsPerMajor(currency: string): number {
  const digits = formatter(currency, 'en-US').resolvedOptions().maximumFractionDigits ?? 2;
  return 10 ** digits;
}

/**
 * The one money formatter of server and web (docs/decisions/0039): an amount in the currency's
 * minor units (cents, pence) shown as that currency in `locale`, e.g. 1250 GBP → "£12.50".
 */
export function formatMoney(
  minorUnits: number,
  currency: string = DEFAULT_CURRENCY,
  locale = 'en-US',
): string {
  return formatter(currency, locale).format(minorUnits / minorUnitsPerMajor(currency));
}

/** The 400 for seats priced in two currencies in one checkout (or a voucher in another one). */
export const MIXED_CURRENCIES_MESSAGE =
  'One checkout cannot mix currencies: choose seats priced in one currency.';

export const voucherCurrencyMessage = (voucher: string, checkout: string) =>
  `This voucher is in ${voucher}; this checkout is in ${checkout}.`;
