import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import {
  calendarTypeCreate,
  calendarTypeUpdate,
  durationWords,
  MAX_MINIMUM_MINUTES,
  SLOT_MINUTES,
  type CalendarType,
} from '@paddock/contract/calendars';
import { ImagePicker } from '../../../components/image-picker/image-picker';
import { TextField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { createSeatType, saveSeatType, seatTypesQuery } from '../api/venue-setup-api';
import { issuesToErrors, onSaveError, type FieldErrors } from '../../../lib/field-errors';

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
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: typeof draft) => (type ? saveSeatType(type.id, body) : createSeatType(body)),
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: seatTypesQuery.queryKey });
      await client.invalidateQueries({ queryKey: ['venue-setup', 'seats'] });
      showAlert(`The seat type ${saved.name} has been saved.`, 'success', 5_000);
      onClose();
    },
    onError: onSaveError(setErrors),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = (type ? calendarTypeUpdate : calendarTypeCreate).safeParse(draft);
    if (!checked.success) return setErrors(issuesToErrors(checked.error));
    save.mutate(draft);
  };
  return (
    <Modal show onHide={onClose} aria-labelledby="seat-type-modal-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id="seat-type-modal-title">
            {type ? `Edit ${type.name}` : 'Add a seat type'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
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
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending && <Spinner size="sm" className="me-2" aria-hidden />}
            Save Seat Type
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** The venue's seat types (shared by every location). */
export function SeatTypesSection({ types }: { types: CalendarType[] }) {
  const [editing, setEditing] = useState<CalendarType | 'new' | null>(null);
  return (
    <section className="mb-4" aria-labelledby="seat-types-title">
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <h2 id="seat-types-title" className="h4 mb-0">
          Seat types
        </h2>
        <Button variant="outline-primary" onClick={() => setEditing('new')}>
          Add Seat Type
        </Button>
      </div>
      {types.length === 0 ? (
        <p>No seat types yet.</p>
      ) : (
        <Table responsive size="sm" className="align-middle">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">VR</th>
              <th scope="col">Description</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{t.is_vr ? 'Yes' : 'No'}</td>
                <td className="text-break">{t.description}</td>
                <td className="text-end">
                  <Button
                    size="sm"
                    variant="outline-primary"
                    aria-label={`Edit seat type ${t.name}`}
                    onClick={() => setEditing(t)}
                  >
                    Edit
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {editing && (
        <SeatTypeModal type={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}
