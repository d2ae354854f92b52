import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../../components/text-field';
import { PASSWORD_HINT, PASSWORDS_MUST_MATCH } from '../forms';

type Props = {
  /** Current values, for the live mismatch warning. */
  values: [password: string, confirm: string];
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  passwordError?: string;
  confirmError?: string;
  passwordLabel?: string;
  confirmLabel?: string;
};

/**
 * Password and confirmation; while the password field has focus it shows the length hint, and
 * once a confirmation is typed a mismatch shows 'Passwords must match' as you type.
 */
export function PasswordFields({
  values,
  password,
  confirm,
  passwordError,
  confirmError,
  passwordLabel = 'Password',
  confirmLabel = 'Confirm Password',
}: Props) {
  const [focused, setFocused] = useState(false);
  const [passwordValue, confirmValue] = values;
  // Live rather than on blur: a message appearing on blur would move the submit button away
  // from under the pointer between mouse down and up.
  const mismatch = confirmValue !== '' && confirmValue !== passwordValue;
  const shownConfirmError = mismatch
    ? PASSWORDS_MUST_MATCH
    : confirmValue === ''
      ? confirmError
      : undefined;
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
        // The hint's line stays while hidden, so nothing below jumps when focus moves away
        // (a click on the button under it would otherwise miss).
        hint={passwordError ? undefined : focused ? PASSWORD_HINT : '\u00a0'}
        error={passwordError}
      />
      <TextField
        label={confirmLabel}
        type="password"
        autoComplete="new-password"
        {...confirm}
        error={shownConfirmError}
      />
    </>
  );
}
