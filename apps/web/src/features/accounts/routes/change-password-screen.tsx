import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { PASSWORD_UPDATED_MESSAGE } from '@paddock/contract/accounts';
import { PageTitle } from '../../../components/page-title';
import { TextField } from '../../../components/text-field';
import { showAlert, showError } from '../../../lib/alerts';
import { asksCurrentPassword, useSession } from '../../../lib/auth-store';
import { useCurrentUser } from '../../../lib/current-user';
import { serverFieldErrors } from '../../../lib/field-errors';
import { pathTo } from '../../../lib/routes';
import { updatePassword } from '../api/passwords';
import { PasswordFields } from '../components/password-fields';
import { changePasswordSchema, type ChangePasswordForm } from '../forms';

/**
 * /profile/password/change: new password and confirmation, non-empty and equal (spec §5), and
 * the current password once the user has chosen one, except right after a reset link (0113).
 */
export default function ChangePasswordScreen() {
  const session = useSession();
  const user = useCurrentUser();
  const navigate = useNavigate();
  // The server has the last word: when it asks for the current password, the field shows.
  const [serverAsked, setServerAsked] = useState(false);
  const askCurrent = serverAsked || asksCurrentPassword(session, user.data?.is_onboarded ?? true);
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordSchema),
    mode: 'onTouched',
    defaultValues: { current_password: '', password: '', password_confirm: '' },
  });
  const [current, password, confirm] = useWatch({
    control: form.control,
    name: ['current_password', 'password', 'password_confirm'],
  });
  const canSubmit = password !== '' && password === confirm && (!askCurrent || current !== '');
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (values: ChangePasswordForm) =>
      updatePassword(
        session!.userId,
        values.password,
        askCurrent ? values.current_password : undefined,
      ),
    onSuccess: () => {
      showAlert(PASSWORD_UPDATED_MESSAGE, 'success', 5_000);
      navigate(pathTo('dashboard'));
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (fields?.current_password) {
        setServerAsked(true);
        form.setError(
          'current_password',
          { message: fields.current_password },
          { shouldFocus: true },
        );
      } else if (fields?.new_password) {
        form.setError('password', { message: fields.new_password }, { shouldFocus: true });
      } else showError(error);
    },
  });

  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <PageTitle>Change Password</PageTitle>
      <Form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        {askCurrent && (
          <TextField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            {...form.register('current_password')}
            error={errors.current_password?.message}
          />
        )}
        <PasswordFields
          values={[password, confirm]}
          password={form.register('password')}
          confirm={form.register('password_confirm')}
          passwordError={errors.password?.message}
          confirmError={errors.password_confirm?.message}
          passwordLabel="New Password"
          confirmLabel="Confirm New Password"
        />
        <Button type="submit" className="w-100" disabled={!canSubmit || save.isPending}>
          {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Change Password
        </Button>
      </Form>
    </section>
  );
}
