import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { formatMoney, minorUnitsPerMajor } from '@paddock/contract/money-format';
import {
  VOUCHER_MESSAGE_MAX,
  voucherCreate,
  type VoucherAdminDetail,
} from '@paddock/contract/vouchers';
import { TextField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { issuesToErrors, onSaveError, type FieldErrors } from '../../../lib/field-errors';
import { issueVoucher, VOUCHERS_KEY } from '../api/vouchers-admin-api';

export const voucherIssuedMessage = (v: VoucherAdminDetail) =>
  `Voucher ${v.code} issued for ${formatMoney(v.amount_cents, v.currency)}.`;

/** Holders of vouchers.add_voucher: a voucher in the venue's default currency, no charge. */
export function IssueVoucherForm({ currency }: { currency: string }) {
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [recipientName, setRecipientName] = useState('');
  const [recipientEmail, setRecipientEmail] = useState('');
  const [message, setMessage] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const issue = useMutation({
    mutationFn: issueVoucher,
    onSuccess: async (voucher) => {
      await client.invalidateQueries({ queryKey: VOUCHERS_KEY });
      showAlert(voucherIssuedMessage(voucher), 'success', 15_000);
      setAmount('');
      setRecipientName('');
      setRecipientEmail('');
      setMessage('');
      setExpiresOn('');
    },
    onError: onSaveError(setErrors),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const major = Number(amount);
    const parsed = voucherCreate.safeParse({
      amount_cents: amount.trim() === '' ? 0 : Math.round(major * minorUnitsPerMajor(currency)),
      recipient_name: recipientName,
      recipient_email: recipientEmail,
      message,
      expires_on: expiresOn || null,
    });
    if (!parsed.success) return setErrors(issuesToErrors(parsed.error));
    setErrors({});
    issue.mutate(parsed.data);
  };

  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h5">Issue a Voucher</h2>
        <Form onSubmit={submit} noValidate>
          <div className="row g-2">
            <TextField
              groupClassName="col-6 col-md-3 mb-3"
              label={`Amount (${currency})`}
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              error={errors.amount_cents}
              required
            />
            <TextField
              groupClassName="col-6 col-md-3 mb-3"
              label="Expires on"
              type="date"
              value={expiresOn}
              onChange={(e) => setExpiresOn(e.target.value)}
              error={errors.expires_on}
              hint="Last day it can be spent; empty: never."
            />
            <TextField
              groupClassName="col-12 col-md-3 mb-3"
              label="Recipient name"
              value={recipientName}
              onChange={(e) => setRecipientName(e.target.value)}
              error={errors.recipient_name}
            />
            <TextField
              groupClassName="col-12 col-md-3 mb-3"
              label="Recipient email"
              type="email"
              value={recipientEmail}
              onChange={(e) => setRecipientEmail(e.target.value)}
              error={errors.recipient_email}
            />
          </div>
          <TextField
            label="Message"
            rows={2}
            maxLength={VOUCHER_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={errors.message}
          />
          <Button type="submit" disabled={issue.isPending}>
            Issue Voucher
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
