import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { LOGIN_LINK_REQUIRED, LOGIN_PROTECTED_MESSAGE } from '@paddock/contract/accounts';
import { PageTitle } from '../../../components/page-title';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { isTokenLive } from '../../../lib/auth-store';
import { showAlert, showError } from '../../../lib/alerts';
import { pathTo, safeRedirect } from '../../../lib/routes';
import { endSession, startSession } from '../../../lib/session';
import { exchangeLoginLink, login } from '../api/login';
import { loginSchema, type LoginForm } from '../forms';

export const LOGIN_FAILED = 'Login failed, please check your login details and try again.';
export const TOKEN_EXPIRED = 'Your Token or Session has expired. Please try again.';
// The spec accepts code=sessionInvalid without showing its wording; this mirrors the one above.
export const SESSION_INVALID = 'Your session is no longer valid. Please log in again.';

/**
 * /login (spec §2 "Login entry"): always logs out first; `?token=` is a login link, traded
 * for a session when it has not expired; errorCode/code explain why the user is here.
 */
export default function LoginScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const redirect = params.get('redirect');
  const linkToken = params.get('token');
  const handled = useRef<string | null>(null);

  const linkLogin = useMutation({
    mutationFn: exchangeLoginLink,
    onSuccess: async ({ access, user }) => {
      await startSession(client, access, user);
      navigate(safeRedirect(redirect, pathTo('change_password')), { replace: true });
    },
    onError: () => expired(),
  });

  function expired() {
    navigate(pathTo('login', {}, { errorCode: 'tokenExpired', redirect }), { replace: true });
  }

  // One pass per visit (StrictMode runs effects twice; a login link works only once).
  useEffect(() => {
    const key = `${linkToken ?? ''}`;
    if (handled.current === key) return;
    handled.current = key;
    endSession(client);
    if (!linkToken) return;
    if (!isTokenLive(linkToken)) expired();
    else linkLogin.mutate(linkToken);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs for each new link token only
  }, [linkToken]);

  const form = useForm<LoginForm>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });
  const [username, password] = useWatch({ control: form.control, name: ['username', 'password'] });
  const canSubmit = username.trim() !== '' && password !== '';

  // Shown until the next try: an account under attack answers every password with this.
  const [protectedNotice, setProtectedNotice] = useState(false);
  const passwordLogin = useMutation({
    mutationFn: login,
    onMutate: () => setProtectedNotice(false),
    onSuccess: async ({ access, user }) => {
      await startSession(client, access, user);
      navigate(safeRedirect(redirect, pathTo('dashboard')), { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === LOGIN_LINK_REQUIRED) {
        setProtectedNotice(true);
      } else if (error instanceof ApiError && (error.status === 400 || error.status === 401)) {
        showAlert(LOGIN_FAILED, 'danger');
      } else showError(error);
    },
  });

  const notice =
    params.get('errorCode') === 'tokenExpired'
      ? TOKEN_EXPIRED
      : params.get('code') === 'sessionInvalid'
        ? SESSION_INVALID
        : null;

  if (linkToken && !linkLogin.isError) {
    return (
      <section className="text-center py-5" role="status">
        <PageTitle>Logging you in…</PageTitle>
        <Spinner animation="border" aria-hidden="true" />
      </section>
    );
  }

  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <PageTitle>Member Login</PageTitle>
      {notice && <Alert variant="warning">{notice}</Alert>}
      {protectedNotice && (
        <Alert variant="info" role="status">
          {LOGIN_PROTECTED_MESSAGE}
        </Alert>
      )}
      <Form
        noValidate
        onSubmit={form.handleSubmit((values) => passwordLogin.mutate(values))}
        aria-label="Member login"
      >
        <TextField
          label="Email or Username"
          autoComplete="username"
          autoFocus
          {...form.register('username')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          {...form.register('password')}
        />
        <Button type="submit" className="w-100" disabled={!canSubmit || passwordLogin.isPending}>
          {passwordLogin.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Log In
        </Button>
      </Form>
      <p className="mt-3 d-flex justify-content-between">
        <Link to={pathTo('forgot_password')}>Forgot Password?</Link>
        <Link to={pathTo('signup', {}, { redirect })}>Create an Account</Link>
      </p>
    </section>
  );
}
