import { useQuery } from '@tanstack/react-query';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { SelectField } from '../../../components/text-field';
import { locationsQuery } from '../../../lib/locations-query';

/** The home location; hidden when locations cannot be listed (or there are none). */
export function LocationSelect({ field }: { field: UseFormRegisterReturn }) {
  const locations = useQuery(locationsQuery);
  if (!locations.data?.length) return null;
  return (
    <SelectField label="Location" {...field}>
      <option value="">Choose a location</option>
      {locations.data.map((l) => (
        <option key={l.id} value={String(l.id)}>
          {l.name}
        </option>
      ))}
    </SelectField>
  );
}
