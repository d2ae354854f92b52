import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { showAlert } from '../../lib/alerts';
import { plainErrorMessage } from '../../lib/error-message';
import { TextField } from '../text-field';
import { createLocalToken } from './card-api';
import type { CardEntryProps } from './card-entry';

const EMPTY = { number: '', month: '', year: '', cvc: '', postal: '' };

/**
 * The built-in card form of the local payment provider. The server checks the card and
 * answers in Stripe's words; those words are shown as they come (spec §8).
 */
export function LocalCardForm({ submitLabel, onToken, onCancel }: CardEntryProps) {
  const [fields, setFields] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setFields((f) => ({ ...f, [key]: e.target.value }));
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
      <TextField
        label="Card Number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={fields.number}
        onChange={set('number')}
        maxLength={23}
      />
      <Row>
        <Col xs={4}>
          <TextField
            label="Expiry Month (MM)"
            inputMode="numeric"
            autoComplete="cc-exp-month"
            placeholder="MM"
            value={fields.month}
            onChange={set('month')}
            maxLength={2}
          />
        </Col>
        <Col xs={4}>
          <TextField
            label="Expiry Year (YY)"
            inputMode="numeric"
            autoComplete="cc-exp-year"
            placeholder="YY"
            value={fields.year}
            onChange={set('year')}
            maxLength={4}
          />
        </Col>
        <Col xs={4}>
          <TextField
            label="CVC"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            value={fields.cvc}
            onChange={set('cvc')}
            maxLength={4}
          />
        </Col>
      </Row>
      <TextField
        label="Postal Code"
        autoComplete="postal-code"
        value={fields.postal}
        onChange={set('postal')}
        maxLength={16}
      />
      <div className="d-flex gap-2">
        <Button type="submit" disabled={!complete || busy}>
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
