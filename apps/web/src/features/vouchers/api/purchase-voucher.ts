import type { Voucher, VoucherPurchase } from '@paddock/contract/vouchers';
import { api } from '../../../lib/api-client';

/** `POST /api/users/me/vouchers/purchase`: charges the saved card, answers the new code. */
export function purchaseVoucher(body: VoucherPurchase) {
  return api<Voucher>('/users/me/vouchers/purchase', { method: 'POST', body });
}
