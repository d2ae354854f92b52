import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { PERMISSIONS, type Permission } from '@paddock/contract/accounts';

/** One checkbox per permission string, as the server names them. */
export function PermissionChecks({
  value,
  onChange,
  legend,
}: {
  value: Permission[];
  onChange: (next: Permission[]) => void;
  legend: string;
}) {
  const id = useId();
  return (
    <fieldset className="mb-3">
      <legend className="fs-6 fw-semibold">{legend}</legend>
      <div className="row row-cols-1 row-cols-md-2 g-1">
        {PERMISSIONS.map((p) => (
          <div className="col" key={p}>
            <Form.Check
              id={`${id}-${p}`}
              type="checkbox"
              className="text-break"
              label={p}
              checked={value.includes(p)}
              onChange={(e) =>
                onChange(e.target.checked ? [...value, p] : value.filter((q) => q !== p))
              }
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}
