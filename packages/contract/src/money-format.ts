// Money shown on screens that parse nothing (the dashboard's first paint): kept apart from
// money.ts so it comes without zod (decisions 0045, 0064).

/** What a location prices in when nobody chose (and what every amount was before 0039). */
export const DEFAULT_CURRENCY = 'USD';

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
