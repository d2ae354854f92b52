import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { RACER_NAME_MAX } from '@paddock/contract/accounts';
import { TextField } from '../../../components/text-field';
import { LocationSelect } from './location-select';

type FieldName =
  'first_name' | 'last_name' | 'contact_phone' | 'zip_code' | 'racer_name' | 'location';

/** Two to a row on wider screens. */
const PAIRED_ROWS = [
  [
    { name: 'first_name', label: 'First Name', autoComplete: 'given-name' },
    { name: 'last_name', label: 'Last Name', autoComplete: 'family-name' },
  ],
  [
    { name: 'contact_phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
    { name: 'zip_code', label: 'Zip Code', autoComplete: 'postal-code' },
  ],
] as const;

type Props = {
  register: (name: FieldName) => UseFormRegisterReturn;
  errors: Partial<Record<FieldName, { message?: string }>>;
  /** Fields of the profile form only (flag, Instagram), placed before the location. */
  children?: ReactNode;
};

/** The profile details that signup step 1 and the profile form both ask for (spec §5, §9). */
export function ProfileFields({ register, errors, children }: Props) {
  return (
    <>
      {PAIRED_ROWS.map((row) => (
        <Row key={row[0].name}>
          {row.map(({ name, ...input }) => (
            <Col sm={6} key={name}>
              <TextField {...input} {...register(name)} error={errors[name]?.message} />
            </Col>
          ))}
        </Row>
      ))}
      <TextField
        label="Racer Name (optional)"
        maxLength={RACER_NAME_MAX}
        {...register('racer_name')}
        error={errors.racer_name?.message}
        hint="Shown on leaderboards instead of your name."
      />
      {children}
      <LocationSelect field={register('location')} />
    </>
  );
}
