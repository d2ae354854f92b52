import {
  useFieldArray,
  type Control,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { VenueSettings } from '@paddock/contract/venue';
import { TextField } from '../../../components/text-field';

type Props = {
  name: 'nav_links' | 'social_links';
  legend: string;
  /** One link's name in labels and buttons: 'Top bar link', 'Social link'. */
  item: string;
  control: Control<VenueSettings>;
  register: UseFormRegister<VenueSettings>;
  errors: FieldErrors<VenueSettings>;
};

/** Nav links or social links: label and address per row, added and removed in place. */
export function LinkListField({ name, legend, item, control, register, errors }: Props) {
  const links = useFieldArray({ control, name });
  return (
    <fieldset className="mb-3">
      <legend className="h6">{legend}</legend>
      {links.fields.length === 0 && <p className="text-body-secondary small">None yet.</p>}
      {links.fields.map((field, i) => (
        <Row key={field.id} className="g-2 align-items-end">
          <Col sm={4}>
            <TextField
              label={`${item} ${i + 1} label`}
              {...register(`${name}.${i}.label`)}
              error={errors[name]?.[i]?.label?.message}
            />
          </Col>
          <Col sm={6}>
            <TextField
              label={`${item} ${i + 1} address`}
              type="url"
              {...register(`${name}.${i}.url`)}
              error={errors[name]?.[i]?.url?.message}
            />
          </Col>
          <Col sm={2} className="mb-3">
            <Button variant="outline-danger" onClick={() => links.remove(i)}>
              Remove
              <span className="visually-hidden">
                {' '}
                {item.toLowerCase()} {i + 1}
              </span>
            </Button>
          </Col>
        </Row>
      ))}
      <Button
        variant="outline-secondary"
        size="sm"
        onClick={() => links.append({ label: '', url: '' })}
        disabled={links.fields.length >= 12}
      >
        Add a {item.toLowerCase()}
      </Button>
    </fieldset>
  );
}
