import { formatMoney } from '@paddock/contract/money-format';

/**
 * The one way a declined or unpaid booking is told (decision 0096): the booking is kept, unpaid,
 * as an outstanding balance with its amount; nothing is charged until the customer says so.
 */
export function outstandingSentence(cents: number, currency?: string): string {
  return `Your reservation is kept but not paid: you have an outstanding balance of ${formatMoney(cents, currency)}.`;
}

/** The question asked before a saved card pays the balance (never charged silently). */
export function payOutstandingQuestion(cents: number, currency?: string): string {
  return `Pay the outstanding ${formatMoney(cents, currency)} now?`;
}
