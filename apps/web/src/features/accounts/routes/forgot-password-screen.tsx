import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { FORGOT_PASSWORD_MESSAGE } from '@paddock/contract/accounts';
import { PageTitle } from '../../../components/page-title';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { showAlert } from '../../../lib/alerts';
import { UNEXPECTED_ERROR, errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { useEndSession } from '../../../lib/session';
import { forgotPassword } from '../api/passwords';
import { emailSchema, isValidEmail, type EmailForm } from '../forms';

export const FORGOT_PASSWORD_FAILED = 'Auth failed, please try again or contact us';

/** /login/password/reset: clears the session, then asks for the e-mail (spec §2, §8). */
export default function ForgotPasswordScreen() {
  const endSession = useEndSession();
  const navigate = useNavigate();
  useEffect(() => endSession(), [endSession]);

  const form = useForm<EmailForm>({
    resolver: zodResolver(emailSchema),
    defaultValues: { email: '' },
  });
  const email = useWatch({ control: form.control, name: 'email' });

  const send = useMutation({
    mutationFn: (values: EmailForm) => forgotPassword(values.email.trim()),
    onSuccess: () => {
      showAlert(FORGOT_PASSWORD_MESSAGE, 'info', 15_000);
      form.reset();
      navigate(pathTo('login'));
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        showAlert(errorMessage(error, { 400: FORGOT_PASSWORD_FAILED }), 'danger');
      } else showAlert(UNEXPECTED_ERROR, 'danger');
    },
  });

  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <PageTitle>Forgot Password</PageTitle>
      <p>Enter the email address of your account and we'll send you a new login.</p>
      <Form noValidate onSubmit={form.handleSubmit((values) => send.mutate(values))}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          autoFocus
          {...form.register('email')}
          error={form.formState.errors.email?.message}
        />
        <Button type="submit" className="w-100" disabled={!isValidEmail(email) || send.isPending}>
          {send.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Send Login Link
        </Button>
      </Form>
      <p className="mt-3">
        <Link to={pathTo('login')}>Back to Log In</Link>
      </p>
    </section>
  );
}
