import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { formatMoney } from '@paddock/contract/money-format';
import {
  VOUCHER_STATUSES,
  type VoucherAdmin,
  type VoucherStatus,
} from '@paddock/contract/vouchers';
import { PageTitle } from '../../../components/page-title';
import { Pager } from '../../../components/pager';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { SelectField, TextField } from '../../../components/text-field';
import { hasPermission, useSession } from '../../../lib/auth-store';
import { errorMessage } from '../../../lib/error-message';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useVenueConfig } from '../../../lib/venue-config';
import { vouchersListQuery } from '../api/vouchers-admin-api';
import { IssueVoucherForm } from '../components/issue-voucher-form';
import { VoucherDetailModal } from '../components/voucher-detail-modal';
import { VOUCHER_STATUS_LABELS, VoucherStatusBadge } from '../components/voucher-status-badge';

const WORDY_CELL = { minWidth: '11rem' };

const recipientOf = (v: VoucherAdmin) => v.recipient_name || v.recipient_email || '—';
const buyerOf = (v: VoucherAdmin) =>
  v.created_by ? `${v.source === 'purchase' ? 'Bought' : 'Issued'} by ${v.created_by.email}` : '—';

/**
 * Staff with vouchers.view_voucher: every voucher, searched and filtered; issuing needs
 * vouchers.add_voucher and voiding vouchers.change_voucher (issue 16, decision 0042).
 */
export default function VouchersAdminScreen() {
  const session = useSession();
  const config = useVenueConfig();
  const canIssue = hasPermission(session, 'vouchers.add_voucher');
  const canVoid = hasPermission(session, 'vouchers.change_voucher');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<VoucherStatus | ''>('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<VoucherAdmin | null>(null);
  const settledSearch = useDebouncedValue(search, 300);
  const list = useQuery(vouchersListQuery({ search: settledSearch, status, page }));

  return (
    <>
      <PageTitle>Vouchers</PageTitle>
      {canIssue && <IssueVoucherForm currency={config.default_currency} />}
      <div role="search" className="row g-2 align-items-end mb-2">
        <TextField
          groupClassName="col-12 col-md-8 mb-2"
          label="Search"
          type="search"
          placeholder="Code, e-mail or name"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        <SelectField
          groupClassName="col-12 col-md-4 mb-2"
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as VoucherStatus | '');
            setPage(1);
          }}
        >
          <option value="">All</option>
          {VOUCHER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {VOUCHER_STATUS_LABELS[s]}
            </option>
          ))}
        </SelectField>
      </div>
      {list.isPending && <SpinnerScreen />}
      {list.isError && <Alert variant="danger">{errorMessage(list.error)}</Alert>}
      {list.data && list.data.count === 0 && <p>No vouchers match.</p>}
      {list.data && list.data.count > 0 && (
        <>
          <p className="text-body-secondary small" aria-live="polite">
            {list.data.count} voucher{list.data.count === 1 ? '' : 's'}
          </p>
          <Table responsive hover className="align-middle">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Amount</th>
                <th scope="col">Balance</th>
                <th scope="col">Status</th>
                <th scope="col">Recipient</th>
                <th scope="col">From</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((v) => (
                <tr key={v.id}>
                  <td>
                    <Button
                      variant="link"
                      className="p-0 font-monospace text-nowrap"
                      onClick={() => setOpen(v)}
                    >
                      {v.code}
                    </Button>
                  </td>
                  <td>{formatMoney(v.amount_cents, v.currency)}</td>
                  <td>{formatMoney(v.balance_cents, v.currency)}</td>
                  <td>
                    <VoucherStatusBadge status={v.status} />
                  </td>
                  {/* A long address may break, but the column never narrows to a few letters a
                      line (on a phone the table scrolls sideways instead). */}
                  <td className="text-break" style={WORDY_CELL}>
                    {recipientOf(v)}
                  </td>
                  <td className="text-break" style={WORDY_CELL}>
                    {buyerOf(v)}
                  </td>
                  <td className="text-nowrap">{new Date(v.created_at).toLocaleDateString()}</td>
                  <td className="text-nowrap">{v.expires_on ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager page={page} pageCount={list.data.page_count} onPage={setPage} label="vouchers" />
        </>
      )}
      {open && (
        <VoucherDetailModal
          id={open.id}
          code={open.code}
          canVoid={canVoid}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}
