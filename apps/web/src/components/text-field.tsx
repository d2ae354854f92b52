import { useId, type ComponentProps, type ReactNode } from 'react';

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

/**
 * The fields are Bootstrap's form markup as react-bootstrap's Form parts render it, without
 * them: they are on the booking screen's first paint (decision 0048).
 */
const invalid = (error?: string) => (error ? ' is-invalid' : '');

/** A labelled input with its hint and error tied to it for screen readers. */
export function TextField({ label, error, hint, groupClassName, id, rows, ...input }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy =
    [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div className={groupClassName ?? 'mb-3'}>
      <label className="form-label" htmlFor={inputId}>
        {label}
      </label>
      {rows ? (
        <textarea
          {...(input as unknown as Omit<ComponentProps<'textarea'>, 'value'>)}
          id={inputId}
          className={`${input.className ? `${input.className} ` : ''}form-control${invalid(error)}`}
          value={input.value}
          rows={rows}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      ) : (
        <input
          {...input}
          id={inputId}
          className={`${input.className ? `${input.className} ` : ''}form-control${invalid(error)}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
      {hint && (
        <small id={`${inputId}-hint`} className="d-block form-text">
          {hint}
        </small>
      )}
      {error && (
        <div className="invalid-feedback" id={`${inputId}-error`}>
          {error}
        </div>
      )}
    </div>
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
    <div className={groupClassName ?? 'mb-3'}>
      <label className="form-label" htmlFor={inputId}>
        {label}
      </label>
      <select
        {...select}
        id={inputId}
        className={`${select.className ? `${select.className} ` : ''}form-select${invalid(error)}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
      >
        {children}
      </select>
      {error && (
        <div className="invalid-feedback" id={`${inputId}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}
