import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { PERMISSIONS, type Permission } from '@paddock/contract/accounts';
import { PERMISSION_LABELS } from '@paddock/contract/permission-labels';
import { NOT_YOURS_TO_GRANT, type Grantor } from '@paddock/contract/staff';

/**
 * One checkbox per permission, in words (the server's strings stay in the API). A permission the grantor does
 * not hold is shown but cannot be ticked or unticked (the server refuses it: decision 0073).
 */
export function PermissionChecks({
  value,
  onChange,
  legend,
  grantor,
}: {
  value: Permission[];
  onChange: (next: Permission[]) => void;
  legend: string;
  grantor: Grantor;
}) {
  const id = useId();
  const mayChange = (p: Permission) => grantor.is_superuser || grantor.permissions.includes(p);
  const locked = PERMISSIONS.some((p) => !mayChange(p));
  return (
    <fieldset className="mb-3">
      <legend className="fs-6 fw-semibold">{legend}</legend>
      {locked && (
        <p className="small text-body-secondary" id={`${id}-locked`}>
          Greyed out: {NOT_YOURS_TO_GRANT}
        </p>
      )}
      <div className="row row-cols-1 row-cols-md-2 g-1">
        {PERMISSIONS.map((p) => (
          <div className="col" key={p}>
            <Form.Check
              id={`${id}-${p}`}
              type="checkbox"
              className="text-break"
              label={PERMISSION_LABELS[p]}
              checked={value.includes(p)}
              disabled={!mayChange(p)}
              title={mayChange(p) ? undefined : NOT_YOURS_TO_GRANT}
              aria-describedby={mayChange(p) ? undefined : `${id}-locked`}
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
