import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { RACER_NAME_MAX } from '@paddock/contract/accounts';
import { TextField } from '../../../components/text-field';
import { showError } from '../../../lib/alerts';
import { userQuery } from '../../../lib/current-user';
import { updateUser } from '../api/update-user';
import { locationValue, signupDetailsSchema, type SignupDetailsForm } from '../forms';
import { LocationSelect } from './location-select';
import { PasswordFields } from './password-fields';

type Props = {
  userId: number;
  defaultLocation: number | null;
  onDone: () => void;
};

/** Signup step 1: the real password and the profile details (spec §5). */
export function SignupDetailsStep({ userId, defaultLocation, onDone }: Props) {
  const client = useQueryClient();
  const form = useForm<SignupDetailsForm>({
    resolver: zodResolver(signupDetailsSchema),
    mode: 'onTouched',
    defaultValues: {
      password: '',
      password_confirm: '',
      first_name: '',
      last_name: '',
      zip_code: '',
      contact_phone: '',
      racer_name: '',
      location: defaultLocation ? String(defaultLocation) : '',
    },
  });
  const { errors } = form.formState;
  const passwords = useWatch({ control: form.control, name: ['password', 'password_confirm'] });

  const save = useMutation({
    mutationFn: (values: SignupDetailsForm) =>
      updateUser(userId, {
        password: values.password,
        first_name: values.first_name,
        last_name: values.last_name,
        zip_code: values.zip_code,
        contact_phone: values.contact_phone,
        racer_name: values.racer_name,
        location: locationValue(values.location),
      }),
    onSuccess: (user) => {
      client.setQueryData(userQuery(user.id).queryKey, user);
      onDone();
    },
    onError: (error) => showError(error),
  });

  return (
    <Form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <PasswordFields
        values={passwords}
        password={form.register('password')}
        confirm={form.register('password_confirm')}
        passwordError={errors.password?.message}
        confirmError={errors.password_confirm?.message}
      />
      <Row>
        <Col sm={6}>
          <TextField
            label="First Name"
            autoComplete="given-name"
            {...form.register('first_name')}
            error={errors.first_name?.message}
          />
        </Col>
        <Col sm={6}>
          <TextField
            label="Last Name"
            autoComplete="family-name"
            {...form.register('last_name')}
            error={errors.last_name?.message}
          />
        </Col>
      </Row>
      <Row>
        <Col sm={6}>
          <TextField
            label="Phone"
            type="tel"
            autoComplete="tel"
            {...form.register('contact_phone')}
            error={errors.contact_phone?.message}
          />
        </Col>
        <Col sm={6}>
          <TextField
            label="Zip Code"
            autoComplete="postal-code"
            {...form.register('zip_code')}
            error={errors.zip_code?.message}
          />
        </Col>
      </Row>
      <TextField
        label="Racer Name (optional)"
        maxLength={RACER_NAME_MAX}
        {...form.register('racer_name')}
        error={errors.racer_name?.message}
        hint="Shown on leaderboards instead of your name."
      />
      <LocationSelect field={form.register('location')} />
      <Button type="submit" className="w-100" disabled={save.isPending}>
        {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Continue
      </Button>
    </Form>
  );
}
