import { useId, type ComponentProps, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

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
    <Form.Group className={groupClassName ?? 'mb-3'} controlId={inputId}>
      <Form.Label>{label}</Form.Label>
      {rows ? (
        <Form.Control
          {...(input as unknown as Omit<ComponentProps<'textarea'>, 'value'>)}
          value={input.value}
          as="textarea"
          rows={rows}
          isInvalid={!!error}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      ) : (
        <Form.Control
          {...input}
          isInvalid={!!error}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
      {hint && (
        <Form.Text id={`${inputId}-hint`} className="d-block">
          {hint}
        </Form.Text>
      )}
      {error && (
        <Form.Control.Feedback type="invalid" id={`${inputId}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
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
    <Form.Group className={groupClassName ?? 'mb-3'} controlId={inputId}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        {...select}
        isInvalid={!!error}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
      >
        {children}
      </Form.Select>
      {error && (
        <Form.Control.Feedback type="invalid" id={`${inputId}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}
