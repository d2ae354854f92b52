import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../../components/text-field';
import { PASSWORD_HINT } from '../forms';

type Props = {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  passwordError?: string;
  confirmError?: string;
  passwordLabel?: string;
  confirmLabel?: string;
};

/** Password and confirmation; while the password field has focus it shows the length hint. */
export function PasswordFields({
  password,
  confirm,
  passwordError,
  confirmError,
  passwordLabel = 'Password',
  confirmLabel = 'Confirm Password',
}: Props) {
  const [focused, setFocused] = useState(false);
  return (
    <>
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        {...password}
        onFocus={() => setFocused(true)}
        onBlur={(event) => {
          setFocused(false);
          return password.onBlur(event);
        }}
        hint={focused && !passwordError ? PASSWORD_HINT : undefined}
        error={passwordError}
      />
      <TextField
        label={confirmLabel}
        type="password"
        autoComplete="new-password"
        {...confirm}
        error={confirmError}
      />
    </>
  );
}
