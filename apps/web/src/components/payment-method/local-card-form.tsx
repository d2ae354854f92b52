import { useState, type ComponentProps, type FormEvent } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { showAlert } from '../../lib/alerts';
import { plainErrorMessage } from '../../lib/error-message';
import { TextField } from '../text-field';
import { createLocalToken } from './card-api';
import { CardFormActions } from './card-form-actions';
import type { CardEntryProps } from './card-entry';

const EMPTY = { number: '', month: '', year: '', cvc: '', postal: '' };
type Key = keyof typeof EMPTY;

/** Each input's label and hints; its value and change handler come from the form's state. */
const FIELDS: Record<
  Key,
  Pick<
    ComponentProps<typeof TextField>,
    'label' | 'inputMode' | 'autoComplete' | 'placeholder' | 'maxLength'
  >
> = {
  number: {
    label: 'Card Number',
    inputMode: 'numeric',
    autoComplete: 'cc-number',
    placeholder: '1234 1234 1234 1234',
    maxLength: 23,
  },
  month: {
    label: 'Expiry Month (MM)',
    inputMode: 'numeric',
    autoComplete: 'cc-exp-month',
    placeholder: 'MM',
    maxLength: 2,
  },
  year: {
    label: 'Expiry Year (YY)',
    inputMode: 'numeric',
    autoComplete: 'cc-exp-year',
    placeholder: 'YY',
    maxLength: 4,
  },
  cvc: {
    label: 'CVC',
    inputMode: 'numeric',
    autoComplete: 'cc-csc',
    placeholder: 'CVC',
    maxLength: 4,
  },
  postal: { label: 'Postal Code', autoComplete: 'postal-code', maxLength: 16 },
};
/** Side by side on one row. */
const EXPIRY_AND_CVC = ['month', 'year', 'cvc'] as const;

/**
 * The built-in card form of the local payment provider. The server checks the card and
 * answers in Stripe's words; those words are shown as they come (spec §8).
 */
export function LocalCardForm({ submitLabel, onToken, onCancel }: CardEntryProps) {
  const [fields, setFields] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const input = (key: Key) => (
    <TextField
      {...FIELDS[key]}
      value={fields[key]}
      onChange={(e) => setFields((f) => ({ ...f, [key]: e.target.value }))}
    />
  );
  const complete =
    fields.number.trim() && fields.month.trim() && fields.year.trim() && fields.cvc.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    try {
      const year = Number(fields.year.trim());
      const token = await createLocalToken({
        number: fields.number.trim(),
        exp_month: Number(fields.month.trim()),
        exp_year: year < 100 ? 2000 + year : year,
        cvc: fields.cvc.trim(),
        postal_code: fields.postal.trim() || undefined,
      });
      await onToken(token.id);
      setFields(EMPTY);
    } catch (error) {
      showAlert(plainErrorMessage(error), 'danger');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form noValidate onSubmit={submit} className="paddock-card-form" aria-label="Card details">
      {input('number')}
      <Row>
        {EXPIRY_AND_CVC.map((key) => (
          <Col xs={4} key={key}>
            {input(key)}
          </Col>
        ))}
      </Row>
      {input('postal')}
      <CardFormActions
        submitLabel={submitLabel}
        onCancel={onCancel}
        busy={busy}
        ready={!!complete}
      />
    </Form>
  );
}
