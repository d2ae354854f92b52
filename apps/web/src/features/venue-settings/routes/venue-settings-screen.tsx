import { useId } from 'react';
import { Controller, useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { venueSettings, type VenueSettings } from '@paddock/contract/venue';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { errorMessage } from '../../../lib/error-message';
import { venueConfigQuery } from '../../../lib/venue-config';
import { saveVenueSettings, venueSettingsQuery } from '../api/venue-settings-api';
import { LinkListField } from '../components/link-list-field';
import { ImagePicker } from '../../../components/image-picker/image-picker';
import { StickyBottomBar } from '../../../components/sticky-bottom-bar';

export const SETTINGS_SAVED = 'The venue settings have been saved.';

/** A 400's field messages onto the form's fields; true when every one found its field. */
function placeFieldErrors(
  error: unknown,
  setError: (field: Path<VenueSettings>, error: { message: string }) => void,
) {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.body) return false;
  const body = error.body as Record<string, unknown>;
  const fields = Object.keys(body).filter((f) => f in venueSettings.shape);
  for (const field of fields) {
    const value = body[field];
    const message = Array.isArray(value) ? value.join(' ') : JSON.stringify(value);
    setError(field as Path<VenueSettings>, { message });
  }
  return fields.length > 0 && fields.length === Object.keys(body).length;
}

/**
 * The form keeps unsaved edits when the settings arrive again from the server
 * (`resetOptions.keepDirtyValues`), and react-hook-form applies that option to every
 * `reset` too: Discard and a finished save must overwrite the edits, or a later Save stores
 * what was discarded.
 */
const OVERWRITE = { keepDirtyValues: false } as const;

function SettingsForm({ settings }: { settings: VenueSettings }) {
  const client = useQueryClient();
  const titleId = useId();
  const form = useForm<VenueSettings>({
    resolver: zodResolver(venueSettings),
    mode: 'onTouched',
    values: settings,
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isDirty } = form.formState;
  const save = useMutation({
    mutationFn: saveVenueSettings,
    onSuccess: async (saved) => {
      client.setQueryData(venueSettingsQuery.queryKey, saved);
      form.reset(saved, OVERWRITE);
      // The change feed tells every other open page; this one learns it at once.
      await client.invalidateQueries({ queryKey: venueConfigQuery.queryKey });
      showAlert(SETTINGS_SAVED, 'success', 5_000);
    },
    onError: (error) => {
      if (!placeFieldErrors(error, form.setError)) showError(error);
    },
  });
  const number = { valueAsNumber: true } as const;

  return (
    <Form
      noValidate
      aria-labelledby={titleId}
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
    >
      <h2 id={titleId} className="visually-hidden">
        Venue settings form
      </h2>
      <fieldset className="mb-4">
        <legend className="h5">Venue</legend>
        <Row>
          <Col md={6}>
            <TextField
              label="Company name"
              {...form.register('company_name')}
              error={errors.company_name?.message}
            />
          </Col>
          <Col md={6}>
            <TextField
              label="Marketing site"
              type="url"
              hint="Where the logo leads; empty for this app's home page."
              {...form.register('marketing_url')}
              error={errors.marketing_url?.message}
            />
          </Col>
          <Col md={6}>
            <TextField
              label="Car details page"
              type="url"
              hint="'View Car' embeds this page; {id} is the car's id, {key} its content key. Empty: Paddock's own car page."
              {...form.register('car_details_url')}
              error={errors.car_details_url?.message}
            />
          </Col>
          <Col md={6}>
            <TextField
              label="Default currency"
              hint="ISO 4217 (e.g. USD, GBP): club membership and gift vouchers are sold in it; each location has its own for seats."
              autoComplete="off"
              {...form.register('default_currency', {
                setValueAs: (v: string) => v.trim().toUpperCase(),
              })}
              error={errors.default_currency?.message}
            />
          </Col>
        </Row>
        <Row>
          <Col md={6}>
            <Controller
              control={form.control}
              name="logo_url"
              render={({ field }) => (
                <ImagePicker
                  label="Logo"
                  hint="Shown in the top bar; empty for the company name."
                  value={field.value}
                  onChange={(url) => field.onChange(url)}
                  error={errors.logo_url?.message}
                />
              )}
            />
          </Col>
          <Col md={6}>
            <Controller
              control={form.control}
              name="header_image_url"
              render={({ field }) => (
                <ImagePicker
                  label="Header image"
                  hint='The banner over the booking page while "Show header images" is on.'
                  value={field.value}
                  onChange={(url) => field.onChange(url)}
                  error={errors.header_image_url?.message}
                />
              )}
            />
          </Col>
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Club</legend>
        <Form.Check
          type="switch"
          id="club-enabled"
          label="The club is open to join"
          className="mb-3"
          {...form.register('club_enabled')}
        />
        <Row>
          <Col md={6}>
            <TextField
              label="Club name"
              {...form.register('club_name')}
              error={errors.club_name?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Member discount (%)"
              type="number"
              min={0}
              max={100}
              {...form.register('club_discount_percent', number)}
              error={errors.club_discount_percent?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Minimum sessions a month"
              type="number"
              min={1}
              max={100}
              {...form.register('club_min_sessions', number)}
              error={errors.club_min_sessions?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <Controller
              control={form.control}
              name="club_first_race_cents"
              render={({ field }) => (
                <TextField
                  label="First race price ($)"
                  type="number"
                  min={0}
                  step={0.01}
                  name={field.name}
                  ref={field.ref}
                  onBlur={field.onBlur}
                  defaultValue={(field.value / 100).toFixed(2)}
                  key={field.value === settings.club_first_race_cents ? 'saved' : 'edited'}
                  onChange={(e) => field.onChange(Math.round(Number(e.target.value) * 100))}
                  error={errors.club_first_race_cents?.message}
                />
              )}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Credits per session"
              type="number"
              min={1}
              {...form.register('club_credits_per_session', number)}
              error={errors.club_credits_per_session?.message}
            />
          </Col>
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Booking</legend>
        <Row>
          <Col sm={6} md={4}>
            <TextField
              label="Unpaid bookings a customer may hold"
              type="number"
              min={1}
              max={100}
              {...form.register('max_unpaid_reservations', number)}
              error={errors.max_unpaid_reservations?.message}
            />
          </Col>
          <Col sm={6} md={4} className="d-flex align-items-center">
            <Form.Check
              type="switch"
              id="header-images"
              label="Show header images"
              {...form.register('header_images_enabled')}
            />
          </Col>
          <Col sm={6} md={4}>
            <TextField
              label="Header image height (px)"
              type="number"
              min={0}
              max={1000}
              {...form.register('header_image_height', number)}
              error={errors.header_image_height?.message}
            />
          </Col>
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Cancellations</legend>
        <Row>
          <Col sm={6} md={3}>
            <TextField
              label="Free cancellation until (hours before)"
              type="number"
              min={0}
              max={720}
              {...form.register('cancellation_window_hours', number)}
              error={errors.cancellation_window_hours?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Club members: hours before"
              type="number"
              min={0}
              max={720}
              hint="Empty: the same as everyone's."
              {...form.register('club_cancellation_window_hours', {
                setValueAs: (v: string | number | null) =>
                  v === '' || v === null || Number.isNaN(Number(v)) ? null : Number(v),
              })}
              error={errors.club_cancellation_window_hours?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Kept on a late cancellation (%)"
              type="number"
              min={0}
              max={100}
              {...form.register('late_cancellation_keep_percent', number)}
              error={errors.late_cancellation_keep_percent?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Waitlist hold (minutes)"
              type="number"
              min={1}
              max={240}
              {...form.register('waitlist_hold_minutes', number)}
              error={errors.waitlist_hold_minutes?.message}
            />
          </Col>
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Backups</legend>
        <Row>
          <Col sm={6} md={3}>
            <TextField
              label="Nightly backup at (venue time)"
              type="time"
              hint="When the built-in database backs itself up."
              {...form.register('backup_time')}
              error={errors.backup_time?.message}
            />
          </Col>
          <Col sm={6} md={3}>
            <TextField
              label="Nightly backups kept"
              type="number"
              min={1}
              max={365}
              {...form.register('backup_keep', number)}
              error={errors.backup_keep?.message}
            />
          </Col>
        </Row>
      </fieldset>

      <LinkListField
        name="nav_links"
        legend="Links in the top bar"
        item="Top bar link"
        control={form.control}
        register={form.register}
        errors={errors}
      />
      <LinkListField
        name="social_links"
        legend="Social links in the footer"
        item="Social link"
        control={form.control}
        register={form.register}
        errors={errors}
      />

      <fieldset className="mb-4">
        <legend className="h5">Texts</legend>
        <Form.Group className="mb-3" controlId="terms-text">
          <Form.Label>Terms of service</Form.Label>
          <Form.Control
            as="textarea"
            rows={8}
            {...form.register('terms_text')}
            isInvalid={!!errors.terms_text}
          />
          <Form.Control.Feedback type="invalid">{errors.terms_text?.message}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="privacy-text">
          <Form.Label>Privacy policy</Form.Label>
          <Form.Control
            as="textarea"
            rows={6}
            {...form.register('privacy_text')}
            isInvalid={!!errors.privacy_text}
          />
          <Form.Control.Feedback type="invalid">
            {errors.privacy_text?.message}
          </Form.Control.Feedback>
        </Form.Group>
      </fieldset>

      <StickyBottomBar className="d-flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Spinner size="sm" className="me-2" aria-hidden />}
          Save Settings
        </Button>
        <Button
          variant="outline-secondary"
          disabled={!isDirty || save.isPending}
          onClick={() => form.reset(settings, OVERWRITE)}
        >
          Discard Changes
        </Button>
      </StickyBottomBar>
    </Form>
  );
}

/** Staff with venue.change_settings: every venue setting, in the browser (issue 16). */
export default function VenueSettingsScreen() {
  const settings = useQuery(venueSettingsQuery);
  return (
    <>
      <PageTitle>Venue Settings</PageTitle>
      {settings.isPending && <SpinnerScreen />}
      {settings.isError && <Alert variant="danger">{errorMessage(settings.error)}</Alert>}
      {settings.data && <SettingsForm settings={settings.data} />}
    </>
  );
}
