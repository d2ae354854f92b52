import { useNavigate } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { PASSWORD_UPDATED_MESSAGE } from '@paddock/contract/accounts';
import { PageTitle } from '../../../components/page-title';
import { showAlert, showError } from '../../../lib/alerts';
import { useSession } from '../../../lib/auth-store';
import { pathTo } from '../../../lib/routes';
import { updatePassword } from '../api/passwords';
import { PasswordFields } from '../components/password-fields';
import { changePasswordSchema, type ChangePasswordForm } from '../forms';

/** /profile/password/change: new password and confirmation, non-empty and equal (spec §5). */
export default function ChangePasswordScreen() {
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', password_confirm: '' },
  });
  const [password, confirm] = useWatch({
    control: form.control,
    name: ['password', 'password_confirm'],
  });
  const canSubmit = password !== '' && password === confirm;
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (values: ChangePasswordForm) => updatePassword(session!.userId, values.password),
    onSuccess: () => {
      showAlert(PASSWORD_UPDATED_MESSAGE, 'success', 5_000);
      navigate(pathTo('dashboard'));
    },
    onError: (error) => showError(error),
  });

  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <PageTitle>Change Password</PageTitle>
      <Form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
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
