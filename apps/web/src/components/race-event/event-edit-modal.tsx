import { useState } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import CloseButton from 'react-bootstrap/CloseButton';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import {
  ASSIST_NAMES,
  ASSISTS,
  PRESET_NAME_MAX,
  type Driver,
  type RaceEvent,
} from '@paddock/contract/races';
import { showAlert, showError } from '../../lib/alerts';
import {
  carQuery,
  createPreset,
  deletePreset,
  driverKey,
  eventQuery,
  presetsQuery,
  saveEvent,
  searchCars,
  searchDrivers,
  searchTracks,
  skinsQuery,
  trackQuery,
} from '../../lib/api/race-events-api';
import {
  draftFromEvent,
  draftToUpdate,
  fieldErrors,
  withoutCar,
  type EntryDraft,
  type EventDraft,
} from './event-draft';
import { ResourcePicker } from './resource-picker';
import { SessionsEditor } from './sessions-editor';

type Props = {
  eventId: number;
  /** What the event is for: the party's or the seat's name. */
  title: string;
  onClose: () => void;
};

type Errors = { fields: Record<string, string>; general: string[] };
const NO_ERRORS: Errors = { fields: {}, general: [] };

/**
 * The event-edit modal of a party card (spec staff §2): track and cars with search, a car and
 * skin per seat, sessions with the defaults and the time estimate, assists, penalties, fixed
 * setup, drift mode, and presets to load or save. A 400 shows each message beside its field.
 */
export function EventEditModal({ eventId, title, onClose }: Props) {
  const event = useQuery(eventQuery(eventId));
  return (
    <Modal
      show
      onHide={onClose}
      size="xl"
      fullscreen="md-down"
      scrollable
      aria-labelledby={`event-modal-${eventId}`}
    >
      <Modal.Header closeButton>
        <Modal.Title as="h2" id={`event-modal-${eventId}`} className="h5">
          Edit Event: {title}
        </Modal.Title>
      </Modal.Header>
      {event.isPending && (
        <Modal.Body>
          <Spinner animation="border" role="status">
            <span className="visually-hidden">Loading the event…</span>
          </Spinner>
        </Modal.Body>
      )}
      {event.isError && (
        <Modal.Body>
          <Alert variant="danger">The event could not be loaded.</Alert>
        </Modal.Body>
      )}
      {event.data && <EventForm event={event.data} onClose={onClose} />}
    </Modal>
  );
}

function EventForm({ event, onClose }: { event: RaceEvent; onClose: () => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<EventDraft>(() => draftFromEvent(event));
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [presetChoice, setPresetChoice] = useState('');
  const [presetName, setPresetName] = useState('');
  const presets = useQuery(presetsQuery);
  const singlePlayer = event.party === null;
  /** A field edited after a refused save drops its message (and its rows' messages). */
  const clear = (...keys: string[]) =>
    setErrors((e) => ({
      ...e,
      fields: Object.fromEntries(
        Object.entries(e.fields).filter(
          ([path]) => !keys.some((key) => path === key || path.startsWith(`${key}.`)),
        ),
      ),
    }));
  const set = (patch: Partial<EventDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    clear(...Object.keys(patch));
  };

  const saved = (next: RaceEvent) => {
    client.setQueryData(eventQuery(event.id).queryKey, next);
    void client.invalidateQueries({ queryKey: ['races', 'parties'] });
  };
  const failed = (error: unknown) => {
    const found = fieldErrors(error);
    if (found) setErrors(found);
    else showError(error);
  };

  const save = useMutation({
    mutationFn: () => saveEvent(event.id, draftToUpdate(draft)),
    onSuccess: (next) => {
      saved(next);
      showAlert('The event has been saved.', 'success', 5_000);
      onClose();
    },
    onError: failed,
  });
  const loadPreset = useMutation({
    mutationFn: (preset: number) => saveEvent(event.id, { preset }),
    onSuccess: (next) => {
      setErrors(NO_ERRORS);
      setDraft(draftFromEvent(next));
      // The form keeps its place; only the query's copy follows.
      client.setQueryData(eventQuery(event.id).queryKey, next);
      void client.invalidateQueries({ queryKey: ['races', 'parties'] });
      showAlert('The preset has been loaded.', 'success', 5_000);
    },
    onError: failed,
  });
  const savePreset = useMutation({
    // A preset copies the saved event, so what is on screen is saved first.
    mutationFn: async () => {
      const next = await saveEvent(event.id, draftToUpdate(draft));
      saved(next);
      return createPreset({ event: event.id, name: presetName.trim() });
    },
    onSuccess: (preset) => {
      setErrors(NO_ERRORS);
      setPresetName('');
      void client.invalidateQueries({ queryKey: presetsQuery.queryKey });
      showAlert(`Saved the preset ${preset.name}.`, 'success', 5_000);
    },
    onError: failed,
  });
  const [confirmPresetDelete, setConfirmPresetDelete] = useState(false);
  const chosenPreset = presets.data?.find((p) => String(p.id) === presetChoice);
  const removePreset = useMutation({
    mutationFn: (preset: { id: number; name: string }) => deletePreset(preset.id),
    onSuccess: (_, preset) => {
      setPresetChoice('');
      setConfirmPresetDelete(false);
      void client.invalidateQueries({ queryKey: presetsQuery.queryKey });
      showAlert(`Deleted the preset ${preset.name}.`, 'success', 5_000);
    },
    onError: (error) => showError(error),
  });
  const carNames = useQueries({
    queries: draft.cars.map((id) => carQuery(id)),
    combine: (results) =>
      new Map(results.flatMap((r) => (r.data ? [[r.data.id, r.data.name]] : []))),
  });
  const carLabel = (id: number) => carNames.get(id) ?? `Car ${id}`;
  const busy =
    save.isPending || loadPreset.isPending || savePreset.isPending || removePreset.isPending;
  const f = errors.fields;

  const setEntry = (index: number, patch: Partial<EntryDraft>) =>
    set({ entries: draft.entries.map((e, i) => (i === index ? { ...e, ...patch } : e)) });

  return (
    <Form
      noValidate
      // The modal scrolls its body: the form must not be a box between them.
      style={{ display: 'contents' }}
      onSubmit={(e) => {
        e.preventDefault();
        setErrors(NO_ERRORS);
        save.mutate();
      }}
    >
      <Modal.Body>
        {errors.general.length > 0 && (
          <Alert variant="danger">
            {errors.general.map((line) => (
              <div key={line}>{line}</div>
            ))}
          </Alert>
        )}
        <section aria-labelledby="event-presets" className="mb-3 border-bottom pb-3">
          <h3 id="event-presets" className="h6">
            Presets
          </h3>
          <div className="row g-2 align-items-end">
            <Form.Group className="col-12 col-lg-6" controlId="event-preset-load">
              <Form.Label className="small mb-1">Load a preset</Form.Label>
              <div className="d-flex gap-2">
                <Form.Select
                  size="sm"
                  value={presetChoice}
                  isInvalid={!!f.preset}
                  onChange={(e) => {
                    setPresetChoice(e.target.value);
                    setConfirmPresetDelete(false);
                  }}
                >
                  <option value="">Choose a preset</option>
                  {presets.data?.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </Form.Select>
                <Button
                  size="sm"
                  variant="outline-primary"
                  disabled={!presetChoice || busy}
                  onClick={() => loadPreset.mutate(Number(presetChoice))}
                >
                  Load
                </Button>
                <Button
                  size="sm"
                  variant="outline-danger"
                  disabled={!chosenPreset || busy}
                  onClick={() => setConfirmPresetDelete(true)}
                >
                  Delete<span className="visually-hidden"> the chosen preset</span>
                </Button>
              </div>
              {f.preset && <div className="invalid-feedback d-block">{f.preset}</div>}
              {confirmPresetDelete && chosenPreset && (
                <div role="group" aria-label="Delete the preset" className="mt-2 small">
                  <p className="mb-1">
                    Delete the preset {chosenPreset.name}? Events that loaded it keep their
                    settings.
                  </p>
                  <div className="d-flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      autoFocus
                      onClick={() => setConfirmPresetDelete(false)}
                    >
                      Keep It
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={busy}
                      onClick={() => removePreset.mutate(chosenPreset)}
                    >
                      Delete Preset
                    </Button>
                  </div>
                </div>
              )}
            </Form.Group>
            <Form.Group className="col-12 col-lg-6" controlId="event-preset-name">
              <Form.Label className="small mb-1">Save as a preset</Form.Label>
              <div className="d-flex gap-2">
                <Form.Control
                  size="sm"
                  value={presetName}
                  maxLength={PRESET_NAME_MAX}
                  placeholder="Preset name"
                  isInvalid={!!f.name}
                  onChange={(e) => setPresetName(e.target.value)}
                />
                <Button
                  size="sm"
                  variant="outline-primary"
                  className="text-nowrap"
                  disabled={!presetName.trim() || busy}
                  onClick={() => {
                    setErrors(NO_ERRORS);
                    savePreset.mutate();
                  }}
                >
                  Save Preset
                </Button>
              </div>
              {f.name && <div className="invalid-feedback d-block">{f.name}</div>}
            </Form.Group>
          </div>
        </section>

        <div className="row g-3">
          <div className="col-12 col-lg-6">
            <TrackField track={draft.track} error={f.track} onChange={(track) => set({ track })} />
            <h3 className="h6 mt-3">Cars</h3>
            {draft.cars.length === 0 ? (
              <p className="small text-body-secondary mb-2">No cars chosen yet.</p>
            ) : (
              <ul className="list-inline mb-2" aria-label="Chosen cars">
                {draft.cars.map((car) => (
                  <li key={car} className="list-inline-item mb-1">
                    <Badge
                      bg="secondary"
                      className="d-inline-flex align-items-center gap-1 fs-6 fw-normal"
                    >
                      {carLabel(car)}
                      <CloseButton
                        variant="white"
                        className="small"
                        aria-label={`Remove car ${carLabel(car)}`}
                        onClick={() => {
                          setDraft((d) => withoutCar(d, car));
                          clear('cars', 'entries');
                        }}
                      />
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
            <ResourcePicker
              label="Add a car"
              queryKey={['cars', 'pick']}
              search={searchCars}
              describe={(c) => c.car_class}
              isChosen={(c) => draft.cars.includes(c.id)}
              error={f.cars}
              onPick={(car) => {
                client.setQueryData(carQuery(car.id).queryKey, car);
                clear('cars', 'entries');
                setDraft((d) => ({
                  ...d,
                  cars: [...d.cars, car.id],
                  // The first car goes to every seat that has none yet.
                  entries:
                    d.cars.length === 0
                      ? d.entries.map((e) => ({ ...e, car: e.car ?? car.id }))
                      : d.entries,
                }));
              }}
            />
          </div>
          <div className="col-12 col-lg-6">
            <h3 className="h6">Seats</h3>
            {f.entries && <div className="text-danger small mb-2">Seats: {f.entries}</div>}
            {draft.entries.map((entry, index) => (
              <fieldset key={entry.calendar} className="border rounded p-2 mb-2">
                <legend className="fs-6 fw-semibold mb-1">{entry.calendar_name}</legend>
                <div className="row g-2">
                  <Form.Group className="col-6" controlId={`entry-${entry.calendar}-car`}>
                    <Form.Label className="small mb-1">Car</Form.Label>
                    <Form.Select
                      size="sm"
                      value={entry.car ?? ''}
                      isInvalid={!!f[`entries.${index}.car`]}
                      onChange={(e) =>
                        setEntry(index, {
                          car: e.target.value ? Number(e.target.value) : null,
                          skin: null,
                        })
                      }
                    >
                      <option value="">
                        {draft.cars.length ? 'Choose a car' : 'Add a car first'}
                      </option>
                      {draft.cars.map((car) => (
                        <option key={car} value={car}>
                          {carLabel(car)}
                        </option>
                      ))}
                    </Form.Select>
                    {f[`entries.${index}.car`] && (
                      <div className="invalid-feedback d-block">{f[`entries.${index}.car`]}</div>
                    )}
                  </Form.Group>
                  <SkinField
                    calendar={entry.calendar}
                    car={entry.car}
                    skin={entry.skin}
                    error={f[`entries.${index}.skin`]}
                    onChange={(skin) => setEntry(index, { skin })}
                  />
                  <DriverField
                    seat={entry.calendar_name}
                    user={entry.user}
                    error={f[`entries.${index}.user`]}
                    onChange={(user) => setEntry(index, { user })}
                  />
                </div>
                {(f[`entries.${index}`] ?? f[`entries.${index}.calendar`]) && (
                  <div className="invalid-feedback d-block">
                    {f[`entries.${index}`] ?? f[`entries.${index}.calendar`]}
                  </div>
                )}
              </fieldset>
            ))}
          </div>
        </div>

        <SessionsEditor
          sessions={draft.sessions}
          singlePlayer={singlePlayer}
          errors={f}
          onChange={(sessions) => set({ sessions })}
        />

        <div className="row g-3">
          <fieldset className="col-12 col-md-6">
            <legend className="h6">Assists</legend>
            {ASSISTS.map((assist) => (
              <Form.Check
                key={assist}
                id={`assist-${assist}`}
                label={ASSIST_NAMES[assist]}
                checked={draft.assists.includes(assist)}
                onChange={(e) =>
                  set({
                    assists: e.target.checked
                      ? [...draft.assists, assist]
                      : draft.assists.filter((a) => a !== assist),
                  })
                }
              />
            ))}
            {f.assists && <div className="invalid-feedback d-block">{f.assists}</div>}
          </fieldset>
          <fieldset className="col-12 col-md-6">
            <legend className="h6">Rules</legend>
            <Form.Check
              type="switch"
              id="event-penalties"
              label="Penalties"
              checked={draft.penalties}
              onChange={(e) => set({ penalties: e.target.checked })}
            />
            <Form.Check
              type="switch"
              id="event-fixed-setup"
              label="Fixed setup"
              checked={draft.fixed_setup}
              onChange={(e) => set({ fixed_setup: e.target.checked })}
            />
            <Form.Check
              type="switch"
              id="event-drift-mode"
              label="Drift mode"
              checked={draft.drift_mode}
              onChange={(e) => set({ drift_mode: e.target.checked })}
            />
            {(f.penalties ?? f.fixed_setup ?? f.drift_mode) && (
              <div className="invalid-feedback d-block">
                {f.penalties ?? f.fixed_setup ?? f.drift_mode}
              </div>
            )}
          </fieldset>
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          Save Event
        </Button>
      </Modal.Footer>
    </Form>
  );
}

function TrackField({
  track,
  error,
  onChange,
}: {
  track: number | null;
  error?: string;
  onChange: (track: number | null) => void;
}) {
  const client = useQueryClient();
  const chosen = useQuery({ ...trackQuery(track ?? 0), enabled: track !== null });
  return (
    <section aria-labelledby="event-track">
      <h3 id="event-track" className="h6">
        Track
      </h3>
      <p className="mb-2">
        {track === null ? (
          <span className="text-body-secondary">No track chosen yet.</span>
        ) : (
          <>
            <strong>{chosen.data ? trackName(chosen.data) : `Track ${track}`}</strong>{' '}
            <Button
              size="sm"
              variant="link"
              className="p-0 align-baseline"
              onClick={() => onChange(null)}
            >
              Clear<span className="visually-hidden"> track</span>
            </Button>
          </>
        )}
      </p>
      <ResourcePicker
        label="Find a track"
        queryKey={['tracks', 'pick']}
        search={searchTracks}
        describe={(t) => (t.layout ? t.layout : '')}
        isChosen={(t) => t.id === track}
        error={error}
        onPick={(t) => {
          client.setQueryData(trackQuery(t.id).queryKey, t);
          onChange(t.id);
        }}
      />
    </section>
  );
}

const trackName = (t: { name: string; layout: string }) =>
  t.layout ? `${t.name} (${t.layout})` : t.name;

function SkinField({
  calendar,
  car,
  skin,
  error,
  onChange,
}: {
  calendar: number;
  car: number | null;
  skin: number | null;
  error?: string;
  onChange: (skin: number | null) => void;
}) {
  const skins = useQuery({ ...skinsQuery(car ?? 0), enabled: car !== null });
  return (
    <Form.Group className="col-6" controlId={`entry-${calendar}-skin`}>
      <Form.Label className="small mb-1">Skin</Form.Label>
      <Form.Select
        size="sm"
        value={skin ?? ''}
        disabled={car === null}
        isInvalid={!!error}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">{car === null ? 'Choose a car first' : 'Default skin'}</option>
        {skins.data?.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </Form.Select>
      {error && <div className="invalid-feedback d-block">{error}</div>}
    </Form.Group>
  );
}

const driverLabel = (d: Driver) =>
  d.racer_name && d.racer_name !== d.name ? `${d.name} (${d.racer_name})` : d.name;

/** Who sits in the seat: found by name, racer name or e-mail (at most 20 answers). */
function DriverField({
  seat,
  user,
  error,
  onChange,
}: {
  seat: string;
  user: number | null;
  error?: string;
  onChange: (user: number | null) => void;
}) {
  const client = useQueryClient();
  const known = user === null ? undefined : client.getQueryData<Driver>(driverKey(user));
  return (
    <div className="col-12">
      <p className="small mb-1">
        Driver:{' '}
        {user === null ? (
          <span className="text-body-secondary">none</span>
        ) : (
          <>
            <strong>{known ? driverLabel(known) : `#${user}`}</strong>{' '}
            <Button
              size="sm"
              variant="link"
              className="p-0 align-baseline"
              aria-label={`Clear the driver of ${seat}`}
              onClick={() => onChange(null)}
            >
              Clear
            </Button>
          </>
        )}
      </p>
      <ResourcePicker<Driver>
        label="Find a driver"
        queryKey={['races', 'drivers']}
        search={searchDrivers}
        describe={(d) => (d.racer_name && d.racer_name !== d.name ? d.racer_name : '')}
        isChosen={(d) => d.id === user}
        error={error}
        placeholder="Name, racer name or e-mail"
        onPick={(d) => {
          client.setQueryData(driverKey(d.id), d);
          onChange(d.id);
        }}
      />
    </div>
  );
}
