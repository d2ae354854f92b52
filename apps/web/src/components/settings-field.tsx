import type { ComponentProps } from 'react';
import Col, { type ColProps } from 'react-bootstrap/Col';
import { get, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { TextField } from './text-field';

type Props<T extends FieldValues> = Omit<
  ComponentProps<typeof TextField>,
  'error' | 'name' | 'onChange' | 'onBlur' | 'ref' | 'form' | 'width'
> & {
  /** The react-hook-form the field belongs to. */
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>;
  name: Path<T>;
  /** The grid column the field takes (react-bootstrap Col's breakpoints); none: no column. */
  width?: Pick<ColProps, 'xs' | 'sm' | 'md' | 'lg'>;
  /** A number input, read as a number (react-hook-form's valueAsNumber). */
  numeric?: boolean;
  /** How the typed text becomes the value, when not as typed or as a number. */
  setValueAs?: (value: string) => unknown;
};

/**
 * One field of a settings form: a TextField in its grid column, registered on the form under
 * `name` and showing that field's error (Venue Settings; decision 0105).
 */
export function SettingsField<T extends FieldValues>({
  form,
  name,
  width,
  numeric,
  setValueAs,
  ...field
}: Props<T>) {
  const error = get(form.formState.errors, name) as { message?: string } | undefined;
  const options = numeric ? { valueAsNumber: true as const } : setValueAs ? { setValueAs } : {};
  const input = (
    <TextField
      {...field}
      type={numeric ? 'number' : field.type}
      {...form.register(name, options)}
      error={error?.message}
    />
  );
  return width ? <Col {...width}>{input}</Col> : input;
}
