import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { issuesToErrors, onSaveError, type FieldErrors } from './field-errors';

/**
 * A form's save: the body is checked against the contract's schema first (its messages go on
 * the fields), then sent; a 400's messages go on the fields too, anything else is an alert.
 */
export function useCheckedSave<Body, Saved>({
  schema,
  save,
  onSaved,
}: {
  schema: z.ZodType;
  save: (body: Body) => Promise<Saved>;
  onSaved: (saved: Saved) => Promise<void> | void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: onSaved,
    onError: onSaveError(setErrors),
  });
  const submit = (body: Body) => {
    const checked = schema.safeParse(body);
    if (!checked.success) return setErrors(issuesToErrors(checked.error));
    mutation.mutate(body);
  };
  return { errors, saving: mutation.isPending, submit };
}
