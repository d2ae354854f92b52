import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { formatMoney } from '@paddock/contract/money-format';
import {
  VOUCHER_VOID_REASON_MAX,
  voucherVoid,
  type VoucherAdminDetail,
} from '@paddock/contract/vouchers';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { TextField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { useVenueTime } from '../../../lib/venue-time';
import { errorMessage } from '../../../lib/error-message';
import { issuesToErrors, serverFieldErrors, type FieldErrors } from '../../../lib/field-errors';
import { voidVoucher, voucherDetailQuery, VOUCHERS_KEY } from '../api/vouchers-admin-api';
import { VoucherStatusBadge } from './voucher-status-badge';

export const VOUCHER_VOIDED = 'The voucher has been voided.';

const personText = (p: { name: string; email: string } | null) =>
  p ? [p.name, p.email].filter(Boolean).join(' · ') : '—';

function VoidForm({ voucher }: { voucher: VoucherAdminDetail }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: (text: string) => voidVoucher(voucher.id, text),
    onSuccess: async (voided) => {
      client.setQueryData(voucherDetailQuery(voucher.id).queryKey, voided);
      await client.invalidateQueries({ queryKey: [...VOUCHERS_KEY, 'list'] });
      showAlert(VOUCHER_VOIDED, 'success', 5_000);
    },
    onError: (error) =>
      setErrors(serverFieldErrors(error) ?? { non_field_errors: errorMessage(error) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = voucherVoid.safeParse({ reason });
    if (!parsed.success) return setErrors(issuesToErrors(parsed.error));
    setErrors({});
    mutation.mutate(parsed.data.reason);
  };
  return (
    <Form onSubmit={submit} noValidate className="border-top pt-3 mt-3">
      <h3 className="h6">Void this voucher</h3>
      <TextField
        label="Reason"
        rows={2}
        maxLength={VOUCHER_VOID_REASON_MAX}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={errors.reason}
        hint="Kept with the voucher and in the audit trail. A voided voucher cannot be spent."
        required
      />
      {errors.non_field_errors && <Alert variant="danger">{errors.non_field_errors}</Alert>}
      <Button type="submit" variant="danger" disabled={mutation.isPending}>
        Void Voucher
      </Button>
    </Form>
  );
}

function Details({ voucher, canVoid }: { voucher: VoucherAdminDetail; canVoid: boolean }) {
  const money = (cents: number) => formatMoney(cents, voucher.currency);
  const when = useVenueTime().dateTime;
  const rows: [string, ReactNode][] = [
    ['Status', <VoucherStatusBadge key="s" status={voucher.status} />],
    ['Amount', money(voucher.amount_cents)],
    ['Balance', money(voucher.balance_cents)],
    [voucher.source === 'purchase' ? 'Purchased by' : 'Issued by', personText(voucher.created_by)],
    ['Recipient', personText({ name: voucher.recipient_name, email: voucher.recipient_email })],
    ...(voucher.from_name ? [['From', voucher.from_name] as [string, string]] : []),
    ...(voucher.message ? [['Message', voucher.message] as [string, string]] : []),
    ['Created', when(voucher.created_at)],
    ['Expires on', voucher.expires_on ?? 'Never'],
  ];
  if (voucher.voided_at)
    rows.push(
      ['Voided', `${when(voucher.voided_at)} by ${personText(voucher.voided_by)}`],
      ['Void reason', voucher.void_reason],
    );
  return (
    <>
      <dl className="row mb-0">
        {rows.map(([term, value]) => (
          <div className="col-12 d-flex flex-wrap border-bottom py-1" key={term}>
            <dt className="me-2" style={{ minWidth: '8rem' }}>
              {term}
            </dt>
            <dd className="mb-0 text-break">{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="h6 mt-3">Redemptions</h3>
      {voucher.redemptions.length === 0 ? (
        <p className="mb-0">Not spent yet.</p>
      ) : (
        <Table size="sm" responsive className="mb-0">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Amount</th>
              <th scope="col">Customer</th>
              <th scope="col">Checkout</th>
            </tr>
          </thead>
          <tbody>
            {voucher.redemptions.map((r) => (
              <tr key={r.id}>
                <td>{when(r.created_at)}</td>
                <td>{money(r.amount_cents)}</td>
                <td>{personText(r.customer)}</td>
                <td>{r.checkout_id ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {canVoid && voucher.status !== 'voided' && <VoidForm voucher={voucher} />}
    </>
  );
}

/** One voucher: who it is from and for, where it was spent, and (vouchers.change_voucher) void. */
export function VoucherDetailModal({
  id,
  code,
  canVoid,
  onClose,
}: {
  id: number;
  code: string;
  canVoid: boolean;
  onClose: () => void;
}) {
  const detail = useQuery(voucherDetailQuery(id));
  return (
    <Modal show onHide={onClose} size="lg" aria-labelledby="voucher-detail-title">
      <Modal.Header closeButton>
        <Modal.Title id="voucher-detail-title" as="h2" className="h5 font-monospace">
          Voucher {code}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {detail.isPending && <SpinnerScreen />}
        {detail.isError && <Alert variant="danger">{errorMessage(detail.error)}</Alert>}
        {detail.data && <Details voucher={detail.data} canVoid={canVoid} />}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
