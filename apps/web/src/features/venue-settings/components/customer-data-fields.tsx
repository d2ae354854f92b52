import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { VenueSettings } from '@paddock/contract/venue';
import { SettingsField } from '../../../components/settings-field';

/**
 * Customers' data (issue 45, decision 0124): what a deleted customer's laps do on the boards,
 * and after how many years without a visit a customer is anonymised (0: never).
 */
export function CustomerDataFields({ form }: { form: UseFormReturn<VenueSettings> }) {
  const lapsId = useId();
  return (
    <fieldset className="mb-4">
      <legend className="h5">Customers’ data</legend>
      <Row>
        <Form.Group className="mb-3 col-sm-6" controlId={lapsId}>
          <Form.Label>A deleted customer’s laps</Form.Label>
          <Form.Select {...form.register('deleted_driver_laps')}>
            <option value="remove">Leave the leaderboards</option>
            <option value="deleted_driver">Stay, as “Deleted driver”</option>
          </Form.Select>
        </Form.Group>
        <SettingsField
          form={form}
          name="inactive_customer_years"
          width={{ sm: 6 }}
          label="Anonymise customers inactive this many years"
          hint="0 never does. Nobody with a booking ahead or a live membership is anonymised."
          min={0}
          max={20}
          numeric
        />
      </Row>
    </fieldset>
  );
}
