import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { showError } from '../../../lib/alerts';
import { userQuery } from '../../../lib/current-user';
import { updateUser } from '../api/update-user';
import { locationValue, signupDetailsSchema, type SignupDetailsForm } from '../forms';
import { ProfileFields } from './profile-fields';
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
      <ProfileFields register={form.register} errors={errors} />
      <Button type="submit" className="w-100" disabled={save.isPending}>
        {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Continue
      </Button>
    </Form>
  );
}
