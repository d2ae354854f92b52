import { formatMoney } from '@paddock/contract/money-format';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import {
  seatCreate,
  seatUpdate,
  type CalendarType,
  type SeatAdmin,
} from '@paddock/contract/calendars';
import type { Location } from '@paddock/contract/locations';
import { ImagePicker } from '../../../components/image-picker/image-picker';
import {
  EditButton,
  EditDialog,
  ListSection,
  ListTable,
  useEditing,
} from '../../../components/list-with-edit-dialog';
import { SelectField, TextField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { errorMessage } from '../../../lib/error-message';
import { createSeat, locationSeatsQuery, saveSeat } from '../api/venue-setup-api';
import { useCheckedSave } from '../../../lib/use-checked-save';

type Draft = {
  name: string;
  type: string;
  location: string;
  /** Dollars as typed. */
  price: string;
  image: string;
  active: boolean;
  sort_order: string;
  /** The SteamID64 as typed; empty: none. */
  steam_id: string;
};

const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function SeatModal({
  seat,
  location,
  locations,
  types,
  onClose,
}: {
  /** null: a new seat. */
  seat: SeatAdmin | null;
  location: Location;
  locations: Location[];
  types: CalendarType[];
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>({
    name: seat?.name ?? '',
    type: String(seat?.type ?? types[0]?.id ?? ''),
    location: String(seat?.location ?? location.id),
    price: ((seat?.cost_cents ?? 0) / 100).toFixed(2),
    image: seat?.image ?? '',
    active: seat?.active ?? true,
    sort_order: seat ? String(seat.sort_order) : '',
    steam_id: seat?.steam_id ?? '',
  });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const payload = () => ({
    name: draft.name,
    type: numberOf(draft.type),
    location: numberOf(draft.location),
    cost_cents: Math.round(numberOf(draft.price) * 100),
    image: draft.image,
    active: draft.active,
    // A new seat without an order goes after the location's last one (the server decides).
    ...(draft.sort_order.trim() === '' && !seat ? {} : { sort_order: numberOf(draft.sort_order) }),
    steam_id: draft.steam_id.trim() || null,
  });
  const { errors, saving, submit } = useCheckedSave({
    schema: seat ? seatUpdate : seatCreate,
    save: (body: ReturnType<typeof payload>) => (seat ? saveSeat(seat.id, body) : createSeat(body)),
    onSaved: async (saved) => {
      await client.invalidateQueries({ queryKey: ['venue-setup', 'seats'] });
      showAlert(`The seat ${saved.name} has been saved.`, 'success', 5_000);
      onClose();
    },
  });
  return (
    <EditDialog
      titleId="seat-modal-title"
      title={seat ? `Edit ${seat.name}` : 'Add a seat'}
      saveLabel="Save Seat"
      saving={saving}
      onSave={() => submit(payload())}
      onClose={onClose}
    >
      <TextField
        label="Seat name"
        value={draft.name}
        onChange={(e) => set('name', e.target.value)}
        error={errors.name}
      />
      <SelectField
        label="Seat type"
        value={draft.type}
        onChange={(e) => set('type', e.target.value)}
        error={errors.type}
      >
        {types.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
            {t.is_vr ? ' (VR)' : ''}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Seat location"
        value={draft.location}
        onChange={(e) => set('location', e.target.value)}
        error={errors.location}
      >
        {locations.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Price per slot ($)"
        type="number"
        min={0}
        step={0.01}
        value={draft.price}
        onChange={(e) => set('price', e.target.value)}
        error={errors.cost_cents}
      />
      <ImagePicker
        label="Seat image"
        hint="An uploaded image or an https:// address; empty for the seat type's image."
        value={draft.image}
        onChange={(image) => set('image', image)}
        error={errors.image}
      />
      <TextField
        label="Display order"
        type="number"
        hint={seat ? undefined : 'Empty: after the last seat.'}
        value={draft.sort_order}
        onChange={(e) => set('sort_order', e.target.value)}
        error={errors.sort_order}
      />
      <TextField
        label="Steam account of this PC (SteamID64)"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        hint="Optional. For ACC parties: the 17-digit id (starts with 7656119) of the Steam account this seat's PC plays on. When every seat has one, only these PCs can join the party's server, each as its seat's race number."
        value={draft.steam_id}
        onChange={(e) => set('steam_id', e.target.value)}
        error={errors.steam_id}
      />
      <Form.Check
        type="switch"
        id="seat-active"
        label="Bookable (active)"
        checked={draft.active}
        onChange={(e) => set('active', e.target.checked)}
      />
      {errors.non_field_errors && <p className="text-danger mt-2">{errors.non_field_errors}</p>}
    </EditDialog>
  );
}

/** A location's seats, inactive ones too: add, edit, reorder, move (calendars.change_calendar). */
export function SeatsSection({
  location,
  locations,
  types,
}: {
  location: Location;
  locations: Location[];
  types: CalendarType[];
}) {
  const seats = useQuery(locationSeatsQuery(location.id));
  const [editing, setEditing] = useEditing<SeatAdmin>();
  return (
    <ListSection
      titleId="seats-title"
      title={`Seats at ${location.name}`}
      add={{ label: 'Add Seat', onClick: () => setEditing('new'), disabled: types.length === 0 }}
    >
      {types.length === 0 && <p>Add a seat type first.</p>}
      {seats.isPending && <Spinner size="sm" aria-label="Loading seats" />}
      {seats.isError && <Alert variant="danger">{errorMessage(seats.error)}</Alert>}
      {seats.data?.length === 0 && <p>No seats here yet.</p>}
      {seats.data && seats.data.length > 0 && (
        // The rows stand in display order: on a phone its number gives way to the Edit button.
        <ListTable
          columns={[
            { label: 'Order', className: 'd-none d-sm-table-cell' },
            'Seat',
            'Type',
            'Price per slot',
            'Status',
          ]}
        >
          {seats.data.map((s) => (
            <tr key={s.id}>
              <td className="d-none d-sm-table-cell">{s.sort_order}</td>
              <td>{s.name}</td>
              <td>{s.type_name}</td>
              <td>{formatMoney(s.cost_cents, location.currency)}</td>
              <td>{s.active ? 'Active' : 'Inactive'}</td>
              <td className="text-end">
                <EditButton name={`Edit seat ${s.name}`} onClick={() => setEditing(s)} />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {editing && (
        <SeatModal
          seat={editing === 'new' ? null : editing}
          location={location}
          locations={locations}
          types={types}
          onClose={() => setEditing(null)}
        />
      )}
    </ListSection>
  );
}
