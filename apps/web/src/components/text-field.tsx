import { useId, type ComponentProps, type ReactNode } from 'react';
import Feedback from 'react-bootstrap/Feedback';
import FormControl from 'react-bootstrap/FormControl';
import FormGroup from 'react-bootstrap/FormGroup';
import FormLabel from 'react-bootstrap/FormLabel';
import FormSelect from 'react-bootstrap/FormSelect';
import FormText from 'react-bootstrap/FormText';

type Props = Omit<ComponentProps<'input'>, 'size' | 'value'> & {
  value?: string | number;
  label: ReactNode;
  error?: string;
  /** Helper text under the field, announced with it. */
  hint?: ReactNode;
  groupClassName?: string;
  /** A multi-line text area of this many rows instead of an input. */
  rows?: number;
};

/** A labelled input with its hint and error tied to it for screen readers. */
export function TextField({ label, error, hint, groupClassName, id, rows, ...input }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy =
    [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <FormGroup className={groupClassName ?? 'mb-3'} controlId={inputId}>
      <FormLabel>{label}</FormLabel>
      {rows ? (
        <FormControl
          {...(input as unknown as Omit<ComponentProps<'textarea'>, 'value'>)}
          value={input.value}
          as="textarea"
          rows={rows}
          isInvalid={!!error}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      ) : (
        <FormControl
          {...input}
          isInvalid={!!error}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
      {hint && (
        <FormText id={`${inputId}-hint`} className="d-block">
          {hint}
        </FormText>
      )}
      {error && (
        <Feedback type="invalid" id={`${inputId}-error`}>
          {error}
        </Feedback>
      )}
    </FormGroup>
  );
}

type SelectProps = Omit<ComponentProps<'select'>, 'size'> & {
  label: ReactNode;
  error?: string;
  groupClassName?: string;
};

export function SelectField({
  label,
  error,
  groupClassName,
  id,
  children,
  ...select
}: SelectProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FormGroup className={groupClassName ?? 'mb-3'} controlId={inputId}>
      <FormLabel>{label}</FormLabel>
      <FormSelect
        {...select}
        isInvalid={!!error}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
      >
        {children}
      </FormSelect>
      {error && (
        <Feedback type="invalid" id={`${inputId}-error`}>
          {error}
        </Feedback>
      )}
    </FormGroup>
  );
}
