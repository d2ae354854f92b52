import Badge from 'react-bootstrap/Badge';
import type { VoucherStatus } from '@paddock/contract/vouchers';

export const VOUCHER_STATUS_LABELS: Record<VoucherStatus, string> = {
  active: 'Active',
  used: 'Used',
  voided: 'Voided',
  expired: 'Expired',
};

const BG: Record<VoucherStatus, string> = {
  active: 'success',
  used: 'secondary',
  voided: 'danger',
  expired: 'warning',
};

export function VoucherStatusBadge({ status }: { status: VoucherStatus }) {
  return (
    <Badge bg={BG[status]} text={status === 'expired' ? 'dark' : undefined}>
      {VOUCHER_STATUS_LABELS[status]}
    </Badge>
  );
}
