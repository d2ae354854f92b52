import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { VOUCHER_COMMENTS_MAX } from '@paddock/contract/vouchers';
import { TextField } from '../../../components/text-field';
import { formatMoney } from '@paddock/contract/money-format';
import { useVenueConfig } from '../../../lib/venue-config';
import {
  EMPTY_VOUCHER_FORM,
  voucherAmountCents,
  voucherFormSchema,
  type VoucherFormValues,
} from '../voucher-purchase-rules';

type Props = {
  onSubmit: (values: VoucherFormValues) => Promise<unknown>;
  /** Shown above the submit button: e.g. the card that will be charged. */
  paymentNote?: string;
};

/**
 * The gift voucher form (customer §2, §5): an amount in whole dollars ($100 when empty or not a
 * whole number), and optionally send it to someone: their e-mail and your name are then
 * required, with a message of at most 200 characters.
 */
export function VoucherPurchaseForm({ onSubmit, paymentNote }: Props) {
  const config = useVenueConfig();
  const amountId = useId();
  const commentsId = useId();
  const form = useForm<VoucherFormValues>({
    resolver: zodResolver(voucherFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_VOUCHER_FORM,
  });
  const { register, formState, control } = form;
  const errors = formState.errors;
  const sendTo = useWatch({ control, name: 'send_to' });
  const cents = voucherAmountCents(useWatch({ control, name: 'amount' }));
  const comments = useWatch({ control, name: 'email_comments' });

  const amountDescribedBy = [`${amountId}-hint`, errors.amount ? `${amountId}-error` : null]
    .filter(Boolean)
    .join(' ');
  const commentsDescribedBy = [
    `${commentsId}-count`,
    errors.email_comments ? `${commentsId}-error` : null,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <Form noValidate onSubmit={form.handleSubmit(onSubmit)} aria-label="Gift voucher">
      <Form.Group className="mb-3" controlId={amountId}>
        <Form.Label>Amount (whole dollars)</Form.Label>
        <InputGroup hasValidation>
          <InputGroup.Text aria-hidden="true">$</InputGroup.Text>
          <Form.Control
            {...register('amount')}
            inputMode="numeric"
            placeholder="100"
            autoComplete="off"
            isInvalid={!!errors.amount}
            aria-describedby={amountDescribedBy}
          />
          {errors.amount && (
            <Form.Control.Feedback type="invalid" id={`${amountId}-error`}>
              {errors.amount.message}
            </Form.Control.Feedback>
          )}
        </InputGroup>
        <Form.Text id={`${amountId}-hint`} className="d-block">
          Leave it empty for a $100 voucher.
        </Form.Text>
      </Form.Group>

      <Form.Check
        type="switch"
        id={`${amountId}-send-to`}
        className="mb-3"
        label="Send it to someone"
        {...register('send_to')}
      />

      {sendTo && (
        <fieldset className="mb-3">
          <legend className="fs-6 fw-semibold">Recipient</legend>
          <TextField
            label="Recipient Email"
            type="email"
            autoComplete="off"
            {...register('email_to')}
            error={errors.email_to?.message}
          />
          <TextField
            label="Your Name"
            autoComplete="name"
            {...register('email_from_name')}
            error={errors.email_from_name?.message}
          />
          <Form.Group controlId={commentsId}>
            <Form.Label>Message (optional)</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              {...register('email_comments')}
              isInvalid={!!errors.email_comments}
              aria-describedby={commentsDescribedBy}
            />
            <Form.Text
              id={`${commentsId}-count`}
              className={`d-block ${comments.length > VOUCHER_COMMENTS_MAX ? 'text-danger' : ''}`}
            >
              {comments.length}/{VOUCHER_COMMENTS_MAX} characters
            </Form.Text>
            {errors.email_comments && (
              <Form.Control.Feedback type="invalid" id={`${commentsId}-error`}>
                {errors.email_comments.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
        </fieldset>
      )}

      <p className="mb-1" aria-live="polite">
        Voucher amount: <strong>{formatMoney(cents, config.default_currency)}</strong>
      </p>
      {paymentNote && <p className="text-body-secondary">{paymentNote}</p>}
      <Button type="submit" size="lg" disabled={formState.isSubmitting}>
        {formState.isSubmitting && (
          <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />
        )}
        Purchase Voucher
      </Button>
    </Form>
  );
}
