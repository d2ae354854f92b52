import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { TextField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { startSession } from '../../../lib/session';
import { randomPassword, signup } from '../api/signup';
import { emailSchema, isValidEmail, type EmailForm } from '../forms';
import { signupFailure } from '../signup-errors';

type Props = {
  redirect: string | null;
  location: number | null;
  onDone: () => void;
};

/** Signup step 0: the e-mail creates the account with a random password and logs in. */
export function SignupEmailStep({ redirect, location, onDone }: Props) {
  const client = useQueryClient();
  const form = useForm<EmailForm>({
    resolver: zodResolver(emailSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const email = useWatch({ control: form.control, name: 'email' });

  const create = useMutation({
    mutationFn: (values: EmailForm) =>
      signup({
        email: values.email.trim(),
        password: randomPassword(20),
        ...(location ? { location } : {}),
        ...(redirect ? { redirect } : {}),
      }),
    onSuccess: async ({ access, user }) => {
      await startSession(client, access, user);
      onDone();
    },
    onError: (error, values) => {
      const failure = signupFailure(error, values.email.trim());
      showAlert(failure.message, failure.variant, failure.timeoutMs);
    },
  });

  return (
    <Form noValidate onSubmit={form.handleSubmit((values) => create.mutate(values))}>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
        {...form.register('email')}
        error={form.formState.errors.email?.message}
      />
      <Button type="submit" className="w-100" disabled={!isValidEmail(email) || create.isPending}>
        {create.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        Sign Up
      </Button>
    </Form>
  );
}
