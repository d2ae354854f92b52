/** Cents as dollars with two decimals: 1250 → "$12.50". The one place the web formats money. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}
