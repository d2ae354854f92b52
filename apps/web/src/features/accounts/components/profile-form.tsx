import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import type { User } from '@paddock/contract/accounts';
import { SelectField, TextField } from '../../../components/text-field';
import { showAlert, showError } from '../../../lib/alerts';
import { useSession } from '../../../lib/auth-store';
import { userQuery } from '../../../lib/current-user';
import { serverFieldErrors } from '../../../lib/field-errors';
import { updateUser } from '../api/update-user';
import { locationValue, profileSchema, type ProfileForm as Values } from '../forms';
import { ProfileFields } from './profile-fields';

countries.registerLocale(english);

export const PROFILE_SAVED = 'Your profile has been saved.';
/** Spec §9: the flags offered first. */
const DEFAULT_FLAGS = ['us', 'ca', 'gb'];

function countryOptions() {
  const names = countries.getNames('en', { select: 'official' });
  const all = Object.entries(names)
    .map(([code, name]) => ({ code: code.toLowerCase(), name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const first = DEFAULT_FLAGS.map((code) => all.find((c) => c.code === code)!).filter(Boolean);
  return { first, rest: all.filter((c) => !DEFAULT_FLAGS.includes(c.code)) };
}

/** Built once: the list does not change while the app runs. */
const options = countryOptions();

function toValues(user: User): Values {
  return {
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    contact_phone: user.contact_phone,
    zip_code: user.zip_code,
    racer_name: user.racer_name,
    flag_code: user.flag_code,
    social_instagram: user.social_instagram,
    sim_guid: user.sim_guid ?? '',
    visit_reminders: user.visit_reminders,
    location: user.location ? String(user.location) : '',
    current_password: '',
  };
}

type Props = {
  user: User;
  headingLevel?: 2 | 3;
  /** The heading (dashboard, /profile: Profile; admin user page: User Details). */
  title?: string;
  /** What a successful save says. */
  savedMessage?: string;
  /**
   * Staff spec §2: the username may be changed only when the caller enables it (a Username
   * field); with `false` the e-mail, which is the login, is shown disabled. Left out (the
   * customer's own profile) there is no username field and the e-mail stays editable: the server
   * keeps a username that equals the e-mail in step with it.
   */
  allowUsernameChange?: boolean;
};

/** The user edit form: the dashboard, /profile and the staff admin user page. */
export function ProfileForm({
  user,
  headingLevel = 2,
  title = 'Profile',
  savedMessage = PROFILE_SAVED,
  allowUsernameChange,
}: Props) {
  const client = useQueryClient();
  const form = useForm<Values>({
    resolver: zodResolver(profileSchema),
    mode: 'onTouched',
    values: toValues(user),
    // A refetch of the user while someone is typing must not wipe their edits.
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = form.formState;
  const Heading = `h${headingLevel}` as const;
  const emailLocked = allowUsernameChange === false;
  const titleId = useId();
  // One's own new e-mail asks for the current password (decision 0113); staff changing
  // someone else, and an account whose password was never chosen, are not asked.
  const own = useSession()?.userId === user.id;
  const email = useWatch({ control: form.control, name: 'email' });
  const askCurrent = own && user.is_onboarded && !emailLocked && email.trim() !== user.email;

  const save = useMutation({
    mutationFn: (values: Values) =>
      updateUser(user.id, {
        ...(allowUsernameChange && values.username !== user.username
          ? { username: values.username }
          : {}),
        ...(emailLocked ? {} : { email: values.email }),
        first_name: values.first_name,
        last_name: values.last_name,
        contact_phone: values.contact_phone,
        zip_code: values.zip_code,
        racer_name: values.racer_name,
        flag_code: values.flag_code,
        social_instagram: values.social_instagram.replace(/^@/, ''),
        sim_guid: values.sim_guid || null,
        visit_reminders: values.visit_reminders,
        location: locationValue(values.location),
        ...(askCurrent ? { current_password: values.current_password } : {}),
      }),
    onSuccess: (saved) => {
      form.resetField('current_password');
      client.setQueryData(userQuery(saved.id).queryKey, saved);
      showAlert(savedMessage, 'success', 5_000);
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (askCurrent && fields?.current_password)
        form.setError(
          'current_password',
          { message: fields.current_password },
          { shouldFocus: true },
        );
      else showError(error);
    },
  });

  return (
    <Form
      noValidate
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      aria-labelledby={titleId}
    >
      <Heading id={titleId} className="h4 mb-3">
        {title}
      </Heading>
      {allowUsernameChange && (
        <TextField
          label="Username"
          autoComplete="off"
          {...form.register('username')}
          error={errors.username?.message}
        />
      )}
      <TextField
        label="Email"
        type="email"
        autoComplete={allowUsernameChange === undefined ? 'email' : 'off'}
        disabled={emailLocked}
        {...form.register('email')}
        error={errors.email?.message}
      />
      {askCurrent && (
        <TextField
          label="Current Password"
          type="password"
          autoComplete="current-password"
          hint="Needed to change your e-mail address."
          {...form.register('current_password')}
          error={errors.current_password?.message}
        />
      )}
      <ProfileFields register={form.register} errors={errors}>
        <Row>
          <Col sm={6}>
            <SelectField label="Flag" {...form.register('flag_code')}>
              <option value="">No flag</option>
              {options.first.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
              <option disabled>──────────</option>
              {options.rest.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          </Col>
          <Col sm={6}>
            <TextField
              label="Instagram (optional)"
              {...form.register('social_instagram')}
              error={errors.social_instagram?.message}
            />
          </Col>
        </Row>
        <TextField
          label="Sim racing id (optional)"
          hint="Your Steam id as Assetto Corsa shows it: laps from our race servers then find you."
          {...form.register('sim_guid')}
          error={errors.sim_guid?.message}
        />
        <Form.Check
          className="mb-3"
          id={`visit-reminders-${user.id}`}
          label="E-mail me a reminder before each visit"
          {...form.register('visit_reminders')}
        />
      </ProfileFields>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        {allowUsernameChange === undefined ? 'Save Profile' : 'Save User'}
      </Button>
    </Form>
  );
}
