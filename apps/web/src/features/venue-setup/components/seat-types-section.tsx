import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Form from 'react-bootstrap/Form';
import {
  calendarTypeCreate,
  calendarTypeUpdate,
  durationWords,
  MAX_MINIMUM_MINUTES,
  SLOT_MINUTES,
  type CalendarType,
} from '@paddock/contract/calendars';
import { ImagePicker } from '../../../components/image-picker/image-picker';
import {
  EditButton,
  EditDialog,
  ListSection,
  ListTable,
  useEditing,
} from '../../../components/list-with-edit-dialog';
import { TextField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { createSeatType, saveSeatType, seatTypesQuery } from '../api/venue-setup-api';
import { useCheckedSave } from '../../../lib/use-checked-save';

/** Every whole half-hour a seat type's minimum may be. */
const MINIMUM_CHOICES = Array.from(
  { length: MAX_MINIMUM_MINUTES / SLOT_MINUTES },
  (_, i) => (i + 1) * SLOT_MINUTES,
);

function SeatTypeModal({ type, onClose }: { type: CalendarType | null; onClose: () => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState({
    name: type?.name ?? '',
    image: type?.image ?? '',
    description: type?.description ?? '',
    is_vr: type?.is_vr ?? false,
    min_minutes: type?.min_minutes ?? SLOT_MINUTES,
  });
  const { errors, saving, submit } = useCheckedSave({
    schema: type ? calendarTypeUpdate : calendarTypeCreate,
    save: (body: typeof draft) => (type ? saveSeatType(type.id, body) : createSeatType(body)),
    onSaved: async (saved) => {
      await client.invalidateQueries({ queryKey: seatTypesQuery.queryKey });
      await client.invalidateQueries({ queryKey: ['venue-setup', 'seats'] });
      showAlert(`The seat type ${saved.name} has been saved.`, 'success', 5_000);
      onClose();
    },
  });
  return (
    <EditDialog
      titleId="seat-type-modal-title"
      title={type ? `Edit ${type.name}` : 'Add a seat type'}
      saveLabel="Save Seat Type"
      saving={saving}
      onSave={() => submit(draft)}
      onClose={onClose}
    >
      <TextField
        label="Type name"
        value={draft.name}
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        error={errors.name}
      />
      <ImagePicker
        label="Type image"
        value={draft.image}
        onChange={(image) => setDraft({ ...draft, image })}
        error={errors.image}
      />
      <Form.Group className="mb-3" controlId="seat-type-description">
        <Form.Label>Description</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          value={draft.description}
          isInvalid={!!errors.description}
          onChange={(e) => setDraft({ ...draft, description: e.target.value })}
        />
        <Form.Control.Feedback type="invalid">{errors.description}</Form.Control.Feedback>
      </Form.Group>
      <Form.Check
        type="switch"
        id="seat-type-vr"
        label="Virtual reality (VR)"
        checked={draft.is_vr}
        onChange={(e) => setDraft({ ...draft, is_vr: e.target.checked })}
      />
      <Form.Group className="mt-3" controlId="seat-type-minimum">
        <Form.Label>Minimum booking</Form.Label>
        <Form.Select
          value={draft.min_minutes}
          isInvalid={!!errors.min_minutes}
          onChange={(e) => setDraft({ ...draft, min_minutes: Number(e.target.value) })}
        >
          {MINIMUM_CHOICES.map((m) => (
            <option key={m} value={m}>
              {durationWords(m)}
            </option>
          ))}
        </Form.Select>
        <Form.Control.Feedback type="invalid">{errors.min_minutes}</Form.Control.Feedback>
      </Form.Group>
    </EditDialog>
  );
}

/** The venue's seat types (shared by every location). */
export function SeatTypesSection({ types }: { types: CalendarType[] }) {
  const [editing, setEditing] = useEditing<CalendarType>();
  return (
    <ListSection
      titleId="seat-types-title"
      title="Seat types"
      add={{ label: 'Add Seat Type', variant: 'outline-primary', onClick: () => setEditing('new') }}
    >
      {types.length === 0 ? (
        <p>No seat types yet.</p>
      ) : (
        <ListTable columns={['Type', 'VR', 'Description']}>
          {types.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.is_vr ? 'Yes' : 'No'}</td>
              <td className="text-break">{t.description}</td>
              <td className="text-end">
                <EditButton name={`Edit seat type ${t.name}`} onClick={() => setEditing(t)} />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {editing && (
        <SeatTypeModal type={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </ListSection>
  );
}
