import { z } from 'zod';

export { DEFAULT_CURRENCY, formatMoney, minorUnitsPerMajor } from './money-format';

const KNOWN = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code the runtime can format, e.g. "USD", "GBP" (upper case, three letters). */
export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter ISO 4217 currency code, such as USD or GBP.')
  .refine((code) => KNOWN.has(code), 'Not an ISO 4217 currency code.');
export type CurrencyCode = z.infer<typeof currencyCode>;

/** The 400 for seats priced in two currencies in one checkout (or a voucher in another one). */
export const MIXED_CURRENCIES_MESSAGE =
  'One checkout cannot mix currencies: choose seats priced in one currency.';

export const voucherCurrencyMessage = (voucher: string, checkout: string) =>
  `This voucher is in ${voucher}; this checkout is in ${checkout}.`;
