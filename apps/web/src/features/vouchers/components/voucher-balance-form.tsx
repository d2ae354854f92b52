import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { showError } from '../../../lib/alerts';
import { formatMoney } from '@paddock/contract/money-format';
import { VOUCHER_VOIDED_MESSAGE, voucherExpiredMessage } from '@paddock/contract/vouchers';
import { getVoucherBalance } from '../api/get-voucher-balance';

export const VOUCHER_NOT_FOUND = 'Voucher code not found!';

/** Enter a code, Check Balance (disabled while empty), then the balance with a way back. */
export function VoucherBalanceForm({ autoFocus }: { autoFocus?: boolean }) {
  const inputId = useId();
  const [code, setCode] = useState('');
  const check = useMutation({
    mutationFn: getVoucherBalance,
    onError: (error) => showError(error, { 404: VOUCHER_NOT_FOUND }),
  });

  if (check.data) {
    return (
      <div role="status">
        <p className="fs-5">
          The balance of this Voucher is{' '}
          {formatMoney(check.data.balance_cents, check.data.currency)}
        </p>
        {check.data.status === 'voided' && <p className="text-danger">{VOUCHER_VOIDED_MESSAGE}</p>}
        {check.data.status === 'expired' && check.data.expires_on && (
          <p className="text-danger">{voucherExpiredMessage(check.data.expires_on)}</p>
        )}
        <Button
          variant="link"
          className="p-0"
          onClick={() => {
            setCode('');
            check.reset();
          }}
        >
          Check another code
        </Button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) check.mutate(code);
  };
  return (
    <Form onSubmit={submit}>
      <Form.Group className="mb-3" controlId={inputId}>
        <Form.Label>Voucher Code</Form.Label>
        <Form.Control
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          autoFocus={autoFocus}
        />
      </Form.Group>
      <Button type="submit" disabled={!code.trim() || check.isPending}>
        {check.isPending && <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />}
        Check Balance
      </Button>
    </Form>
  );
}
