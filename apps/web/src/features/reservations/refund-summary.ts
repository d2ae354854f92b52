import { formatMoney } from '@paddock/contract/money-format';
import type { RefundBreakdown } from '@paddock/contract/refunds';

/** The ways money goes back, in the order the server writes a breakdown's lines. */
const KINDS = [
  ['card', (b: RefundBreakdown) => b.card_cents],
  ['credits', (b: RefundBreakdown) => b.credits],
  ['voucher', (b: RefundBreakdown) => b.voucher_cents],
  ['kept', (b: RefundBreakdown) => b.kept_cents],
] as const;

const sentence = (line: string) => (line.endsWith('.') ? line : `${line}.`);

/**
 * What a cancel gave back, one sentence per way, summed over the half-hours cancelled together
 * (issue 30: the message repeated each half-hour's amount). The words are the server's lines;
 * only the amount is the sum.
 */
export function refundSummary(breakdowns: RefundBreakdown[], currency: string): string[] {
  if (breakdowns.length <= 1) return (breakdowns[0]?.lines ?? []).map(sentence);
  const out: string[] = [];
  for (const [kind, amountOf] of KINDS) {
    const having = breakdowns.filter((b) => amountOf(b) > 0);
    if (having.length === 0) continue;
    const first = having[0];
    const index = KINDS.filter(([, of]) => of(first) > 0).findIndex(([k]) => k === kind);
    const total = having.reduce((n, b) => n + amountOf(b), 0);
    const amount = kind === 'credits' ? String(total) : formatMoney(total, currency);
    out.push(sentence(first.lines[index].replace(/^\S+/, amount)));
  }
  return out.length ? out : [...new Set(breakdowns.flatMap((b) => b.lines))].map(sentence);
}
