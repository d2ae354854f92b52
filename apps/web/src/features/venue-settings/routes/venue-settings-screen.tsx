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
import { SettingsField } from '../../../components/settings-field';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { errorMessage } from '../../../lib/error-message';
import { venueConfigQuery } from '../../../lib/venue-config';
import { saveVenueSettings, venueSettingsQuery } from '../api/venue-settings-api';
import { LinkListField } from '../components/link-list-field';
import { BookingWidgetFields } from '../components/booking-widget-fields';
import { RigSessionFields } from '../components/rig-session-fields';
import { CustomerDataFields } from '../components/customer-data-fields';
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
          <SettingsField form={form} name="company_name" width={{ md: 6 }} label="Company name" />
          <SettingsField
            form={form}
            name="marketing_url"
            width={{ md: 6 }}
            label="Marketing site"
            type="url"
            hint="Where the logo leads; empty for this app's home page."
          />
          <SettingsField
            form={form}
            name="car_details_url"
            width={{ md: 6 }}
            label="Car details page"
            type="url"
            hint="'View Car' embeds this page; {id} is the car's id, {key} its content key. Empty: Paddock's own car page."
          />
          <SettingsField
            form={form}
            name="default_currency"
            width={{ md: 6 }}
            label="Default currency"
            hint="ISO 4217 (e.g. USD, GBP): club membership and gift vouchers are sold in it; each location has its own for seats."
            autoComplete="off"
            setValueAs={(v: string) => v.trim().toUpperCase()}
          />
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
          <SettingsField form={form} name="club_name" width={{ md: 6 }} label="Club name" />
          <SettingsField
            form={form}
            name="club_discount_percent"
            width={{ sm: 6, md: 3 }}
            label="Member discount (%)"
            min={0}
            max={100}
            numeric
          />
          <SettingsField
            form={form}
            name="club_min_sessions"
            width={{ sm: 6, md: 3 }}
            label="Minimum sessions a month"
            min={1}
            max={100}
            numeric
          />
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
          <SettingsField
            form={form}
            name="club_credits_per_session"
            width={{ sm: 6, md: 3 }}
            label="Credits per session"
            min={1}
            numeric
          />
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Booking</legend>
        <Row>
          <SettingsField
            form={form}
            name="max_unpaid_reservations"
            width={{ sm: 6, md: 4 }}
            label="Unpaid bookings a customer may hold"
            min={1}
            max={100}
            numeric
          />
          <Col sm={6} md={4} className="d-flex align-items-center">
            <Form.Check
              type="switch"
              id="header-images"
              label="Show header images"
              {...form.register('header_images_enabled')}
            />
          </Col>
          <SettingsField
            form={form}
            name="header_image_height"
            width={{ sm: 6, md: 4 }}
            label="Header image height (px)"
            min={0}
            max={1000}
            numeric
          />
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Cancellations</legend>
        <Row>
          <SettingsField
            form={form}
            name="cancellation_window_hours"
            width={{ sm: 6, md: 3 }}
            label="Free cancellation until (hours before)"
            min={0}
            max={720}
            numeric
          />
          <SettingsField
            form={form}
            name="club_cancellation_window_hours"
            width={{ sm: 6, md: 3 }}
            label="Club members: hours before"
            type="number"
            min={0}
            max={720}
            hint="Empty: the same as everyone's."
            setValueAs={(v: string | number | null) =>
              v === '' || v === null || Number.isNaN(Number(v)) ? null : Number(v)
            }
          />
          <SettingsField
            form={form}
            name="late_cancellation_keep_percent"
            width={{ sm: 6, md: 3 }}
            label="Kept on a late cancellation (%)"
            min={0}
            max={100}
            numeric
          />
          <SettingsField
            form={form}
            name="waitlist_hold_minutes"
            width={{ sm: 6, md: 3 }}
            label="Waitlist hold (minutes)"
            min={1}
            max={240}
            numeric
          />
        </Row>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h5">Visit reminders</legend>
        <Row>
          <SettingsField
            form={form}
            name="reminder_hours"
            width={{ sm: 6, md: 3 }}
            label="E-mail a reminder this many hours before a visit"
            hint="0 sends none. Customers can turn reminders off in their profile."
            min={0}
            max={168}
            numeric
          />
          <SettingsField
            form={form}
            name="second_reminder_hours"
            width={{ sm: 6, md: 3 }}
            label="A second reminder this many hours before"
            hint="0 sends none; it must be fewer hours than the first."
            min={0}
            max={48}
            numeric
          />
        </Row>
      </fieldset>

      <BookingWidgetFields form={form} />
      <RigSessionFields form={form} />
      <CustomerDataFields form={form} />

      <fieldset className="mb-4">
        <legend className="h5">Backups</legend>
        <Row>
          <SettingsField
            form={form}
            name="backup_time"
            width={{ sm: 6, md: 3 }}
            label="Nightly backup at (venue time)"
            type="time"
            hint="When the built-in database backs itself up."
          />
          <SettingsField
            form={form}
            name="backup_keep"
            width={{ sm: 6, md: 3 }}
            label="Nightly backups kept"
            min={1}
            max={365}
            numeric
          />
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
        <SettingsField
          form={form}
          name="terms_text"
          id="terms-text"
          label="Terms of service"
          rows={8}
        />
        <SettingsField
          form={form}
          name="privacy_text"
          id="privacy-text"
          label="Privacy policy"
          rows={6}
        />
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
