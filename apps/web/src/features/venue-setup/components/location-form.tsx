import { useId, useState, type FormEvent } from 'react';
import { DEFAULT_CURRENCY } from '@paddock/contract/money-format';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import {
  locationCreate,
  locationUpdate,
  type Location,
  type OpeningHours,
  type SpecialHours,
} from '@paddock/contract/locations';
import { TextField } from '../../../components/text-field';
import { createLocation, saveLocation } from '../api/venue-setup-api';
import { issuesToErrors, onSaveError, type FieldErrors } from '../../../lib/field-errors';
import { SpecialHoursEditor, WeeklyHoursEditor } from './hours-editor';
import { SlotPreviewPanel } from './slot-preview-panel';
import { StickyBottomBar } from '../../../components/sticky-bottom-bar';

type Draft = {
  name: string;
  address: string;
  timezone: string;
  currency: string;
  sales_tax_rate_percent: string;
  /** Dollars as typed; sent in cents. */
  booking_fee: string;
  booking_fees_threshold: string;
  post_booking_url: string;
  opening_hours: OpeningHours;
  special_hours: SpecialHours;
};

const draftOf = (location: Location | null, defaultZone: string): Draft => ({
  name: location?.name ?? '',
  address: location?.address ?? '',
  timezone: location?.timezone ?? defaultZone,
  currency: location?.currency ?? DEFAULT_CURRENCY,
  sales_tax_rate_percent: String(location?.sales_tax_rate_percent ?? 0),
  booking_fee: ((location?.booking_fee_cents ?? 0) / 100).toFixed(2),
  booking_fees_threshold: String(location?.booking_fees_threshold ?? 4),
  post_booking_url: location?.post_booking_url ?? '',
  opening_hours: location?.opening_hours ?? {},
  special_hours: location?.special_hours ?? {},
});

/** A typed number, or NaN for an empty box (the contract then says what it needs). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function payloadOf(draft: Draft) {
  return {
    name: draft.name,
    address: draft.address,
    timezone: draft.timezone,
    currency: draft.currency.trim().toUpperCase(),
    sales_tax_rate_percent: numberOf(draft.sales_tax_rate_percent),
    booking_fee_cents: Math.round(numberOf(draft.booking_fee) * 100),
    booking_fees_threshold: numberOf(draft.booking_fees_threshold),
    post_booking_url: draft.post_booking_url,
    opening_hours: draft.opening_hours,
    special_hours: draft.special_hours,
  };
}

const CURRENCIES: string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];

const ZONES: string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

type Props = {
  location: Location | null;
  /** The venue's default time zone, for a new location. */
  defaultZone: string;
  /** Today's date at the location, the preview's first date. */
  today: string;
  onSaved: (location: Location) => void;
};

/** Create or edit one location: its fields, weekly hours, special dates and a slot preview. */
export function LocationForm({ location, defaultZone, today, onSaved }: Props) {
  const [draft, setDraft] = useState(() => draftOf(location, defaultZone));
  const [errors, setErrors] = useState<FieldErrors>({});
  const titleId = useId();
  const zonesId = useId();
  const currenciesId = useId();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const save = useMutation({
    mutationFn: (payload: ReturnType<typeof payloadOf>) =>
      location ? saveLocation(location.id, payload) : createLocation(payload),
    onSuccess: (saved) => {
      setErrors({});
      onSaved(saved);
    },
    onError: onSaveError(setErrors),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const payload = payloadOf(draft);
    const checked = (location ? locationUpdate : locationCreate).safeParse(payload);
    if (!checked.success) {
      setErrors(issuesToErrors(checked.error));
      return;
    }
    save.mutate(payload);
  };
  const fee = errors.booking_fee_cents;

  return (
    <Form noValidate aria-labelledby={titleId} onSubmit={submit}>
      <h2 id={titleId} className="h4">
        {location ? `Edit ${location.name}` : 'New location'}
      </h2>
      <fieldset className="mb-3">
        <legend className="h5">Location details</legend>
        <Row>
          <Col md={6}>
            <TextField
              label="Name"
              value={draft.name}
              onChange={(e) => set('name', e.target.value)}
              error={errors.name}
            />
          </Col>
          <Col md={6}>
            <TextField
              label="Time zone"
              hint="An IANA time zone, e.g. America/Los_Angeles. Every slot is local to it."
              list={zonesId}
              autoComplete="off"
              value={draft.timezone}
              onChange={(e) => set('timezone', e.target.value)}
              error={errors.timezone}
            />
            <datalist id={zonesId}>
              {ZONES.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </Col>
          <Col md={12}>
            <TextField
              label="Address"
              value={draft.address}
              onChange={(e) => set('address', e.target.value)}
              error={errors.address}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Currency"
              hint="ISO 4217, e.g. USD or GBP."
              list={currenciesId}
              autoComplete="off"
              value={draft.currency}
              onChange={(e) => set('currency', e.target.value)}
              error={errors.currency}
            />
            <datalist id={currenciesId}>
              {CURRENCIES.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Sales tax (%)"
              type="number"
              min={0}
              max={100}
              step={0.001}
              value={draft.sales_tax_rate_percent}
              onChange={(e) => set('sales_tax_rate_percent', e.target.value)}
              error={errors.sales_tax_rate_percent}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label={`Booking fee per slot (${draft.currency || DEFAULT_CURRENCY})`}
              type="number"
              min={0}
              step={0.01}
              value={draft.booking_fee}
              onChange={(e) => set('booking_fee', e.target.value)}
              error={fee}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="No fee from (slots)"
              type="number"
              min={0}
              hint="Fees are waived when one checkout books at least this many half-hours."
              value={draft.booking_fees_threshold}
              onChange={(e) => set('booking_fees_threshold', e.target.value)}
              error={errors.booking_fees_threshold}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="After booking, go to"
              hint="https://… or a path on this site such as /pages/2; empty to stay."
              value={draft.post_booking_url}
              onChange={(e) => set('post_booking_url', e.target.value)}
              error={errors.post_booking_url}
            />
          </Col>
        </Row>
      </fieldset>

      <WeeklyHoursEditor
        value={draft.opening_hours}
        onChange={(v) => set('opening_hours', v)}
        errors={errors}
      />
      <SpecialHoursEditor
        value={draft.special_hours}
        onChange={(v) => set('special_hours', v)}
        errors={errors}
      />
      <SlotPreviewPanel
        timezone={draft.timezone}
        openingHours={draft.opening_hours}
        specialHours={draft.special_hours}
        initialDate={today}
      />

      {errors.non_field_errors && <p className="text-danger">{errors.non_field_errors}</p>}
      <StickyBottomBar className="d-flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Spinner size="sm" className="me-2" aria-hidden />}
          {location ? 'Save Location' : 'Create Location'}
        </Button>
      </StickyBottomBar>
    </Form>
  );
}
