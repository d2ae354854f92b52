import type { VoucherBalance } from '@paddock/contract/vouchers';
import { api } from '../../../lib/api-client';

/** `GET /api/vouchers/{CODE}/balance`; codes are looked up uppercased (spec §3). */
export function getVoucherBalance(code: string) {
  const normalized = code.trim().toUpperCase();
  return api<VoucherBalance>(`/vouchers/${encodeURIComponent(normalized)}/balance`);
}
