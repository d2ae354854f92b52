import type {
  VoucherPurchase,
  VoucherPurchaseCompleteResponse,
  VoucherPurchaseResponse,
} from '@paddock/contract/vouchers';
import { api } from '../../../lib/api-client';

/**
 * `POST /api/users/me/vouchers/purchase`: charges the saved card, answers the new code, or the
 * 3-D Secure challenge the bank asks for (decision 0095).
 */
export function purchaseVoucher(body: VoucherPurchase) {
  return api<VoucherPurchaseResponse>('/users/me/vouchers/purchase', { method: 'POST', body });
}

/** Finishes a purchase once its challenge is over: the voucher, or the challenge still open. */
export function completeVoucherPurchase(id: number) {
  return api<VoucherPurchaseCompleteResponse>(`/users/me/vouchers/purchases/${id}/complete`, {
    method: 'POST',
  });
}
