import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Col from 'react-bootstrap/Col';
import { RIG_START_MODES, RIG_START_MODE_LABELS } from '@paddock/contract/rig-session';
import type { VenueSettings } from '@paddock/contract/venue';
import { SettingsField } from '../../../components/settings-field';

/** The rig session (issue 42, decision 0120): how a booked session starts, and its warnings. */
export function RigSessionFields({ form }: { form: UseFormReturn<VenueSettings> }) {
  const modeId = useId();
  return (
    <fieldset className="mb-4">
      <legend className="h5">Rig sessions</legend>
      <Row>
        <Col sm={12} md={6}>
          <Form.Group className="mb-3">
            <Form.Label htmlFor={modeId}>A booked session’s sim starts when</Form.Label>
            <Form.Select id={modeId} {...form.register('rig_start_mode')}>
              {RIG_START_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {RIG_START_MODE_LABELS[mode]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <SettingsField
          form={form}
          name="rig_first_warning_minutes"
          width={{ sm: 6, md: 3 }}
          label="First warning (minutes before the end)"
          min={1}
          max={30}
          numeric
        />
        <SettingsField
          form={form}
          name="rig_last_warning_minutes"
          width={{ sm: 6, md: 3 }}
          label="Last warning (minutes before the end)"
          min={1}
          max={10}
          numeric
        />
      </Row>
    </fieldset>
  );
}
