import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type {
  VoucherAdmin,
  VoucherAdminDetail,
  VoucherCreate,
  VoucherStatus,
} from '@paddock/contract/vouchers';
import { api } from '../../../lib/api-client';

export type VoucherListFilter = { search: string; status: VoucherStatus | ''; page: number };

export const VOUCHERS_KEY = ['vouchers-admin'];

/** `GET /api/vouchers` (vouchers.view_voucher): newest first, 25 a page. */
export const vouchersListQuery = (filter: VoucherListFilter) =>
  queryOptions({
    queryKey: [...VOUCHERS_KEY, 'list', filter],
    queryFn: ({ signal }) =>
      api<Paginated<VoucherAdmin>>('/vouchers', {
        query: {
          search: filter.search.trim() || undefined,
          status: filter.status || undefined,
          page: filter.page,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** `GET /api/vouchers/{id}`: the voucher and its redemptions. */
export const voucherDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [...VOUCHERS_KEY, 'detail', id],
    queryFn: ({ signal }) => api<VoucherAdminDetail>(`/vouchers/${id}`, { signal }),
  });

/** `POST /api/vouchers` (vouchers.add_voucher). */
export const issueVoucher = (values: VoucherCreate) =>
  api<VoucherAdminDetail>('/vouchers', { method: 'POST', body: values });

/** `POST /api/vouchers/{id}/void` (vouchers.change_voucher). */
export const voidVoucher = (id: number, reason: string) =>
  api<VoucherAdminDetail>(`/vouchers/${id}/void`, { method: 'POST', body: { reason } });
