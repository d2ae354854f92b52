import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import {
  SESSION_NAMES,
  SESSION_TYPES,
  SPAWNS,
  sessionTimeEstimate,
  type SessionType,
  type Spawn,
} from '@paddock/contract/races';
import {
  addableTypes,
  changeSessionType,
  durationMax,
  moveSession,
  newSession,
  type SessionDraft,
} from './event-draft';

const SPAWN_NAMES: Record<Spawn, string> = {
  PIT: 'Pit',
  START: 'Grid start',
  HOTLAP_START: 'Hotlap start',
};

type Props = {
  sessions: SessionDraft[];
  onChange: (sessions: SessionDraft[]) => void;
  /** A seat's own event (not a party's): HOTLAP is allowed. */
  singlePlayer: boolean;
  /** Server errors by path (`sessions`, `sessions.0.duration`). */
  errors: Record<string, string>;
};

/** "Estimated time: 48 minutes" (spec §4: duration + 1.2 rounded, per minute-based session). */
export function estimateText(sessions: readonly SessionDraft[]): string {
  // A duration being typed (empty for now) counts for nothing yet.
  const minutes = sessionTimeEstimate(sessions.filter((s) => Number.isFinite(s.duration)));
  const laps = sessions.filter((s) => s.duration_is_laps).length;
  const lapText = laps ? ` plus ${laps} lap-based session${laps === 1 ? '' : 's'}` : '';
  return `Estimated time: ${minutes} minute${minutes === 1 ? '' : 's'}${lapText}`;
}

/** The event's sessions in running order, each with its type, spawn and length. */
export function SessionsEditor({ sessions, onChange, singlePlayer, errors }: Props) {
  const addable = addableTypes(sessions, singlePlayer);
  const update = (index: number, next: SessionDraft) =>
    onChange(sessions.map((s, i) => (i === index ? next : s)));

  return (
    <fieldset className="mb-3">
      <legend className="h6">Sessions</legend>
      {errors.sessions && (
        <div className="text-danger small mb-2" role="alert">
          Sessions: {errors.sessions}
        </div>
      )}
      <ol className="list-unstyled mb-2">
        {sessions.map((session, index) => {
          const at = `sessions.${index}`;
          const others = sessions.filter((_, i) => i !== index);
          const allowed = addableTypes(others, singlePlayer);
          const label = `Session ${index + 1}`;
          return (
            <li key={session.key} className="border rounded p-2 mb-2">
              <fieldset>
                <legend className="fs-6 fw-semibold mb-2">
                  {label}: {session.name || SESSION_NAMES[session.type]}
                </legend>
                <div className="row g-2 align-items-start">
                  <Form.Group className="col-6 col-md-3" controlId={`${session.key}-type`}>
                    <Form.Label className="small mb-1">Type</Form.Label>
                    <Form.Select
                      size="sm"
                      value={session.type}
                      isInvalid={!!errors[`${at}.type`]}
                      onChange={(e) =>
                        update(index, changeSessionType(session, e.target.value as SessionType))
                      }
                    >
                      {SESSION_TYPES.map((type) => (
                        <option
                          key={type}
                          value={type}
                          disabled={type !== session.type && !allowed[type]}
                        >
                          {SESSION_NAMES[type]}
                        </option>
                      ))}
                    </Form.Select>
                    <FieldError text={errors[`${at}.type`]} />
                  </Form.Group>
                  <Form.Group className="col-6 col-md-3" controlId={`${session.key}-spawn`}>
                    <Form.Label className="small mb-1">Spawn</Form.Label>
                    <Form.Select
                      size="sm"
                      value={session.spawn}
                      isInvalid={!!errors[`${at}.spawn`]}
                      onChange={(e) =>
                        update(index, { ...session, spawn: e.target.value as Spawn })
                      }
                    >
                      {SPAWNS.map((spawn) => (
                        <option
                          key={spawn}
                          value={spawn}
                          // A party's event cannot use the single-seat hotlap start.
                          disabled={
                            spawn === 'HOTLAP_START' && !singlePlayer && session.spawn !== spawn
                          }
                        >
                          {SPAWN_NAMES[spawn]}
                        </option>
                      ))}
                    </Form.Select>
                    <FieldError text={errors[`${at}.spawn`]} />
                  </Form.Group>
                  <Form.Group className="col-6 col-md-3" controlId={`${session.key}-duration`}>
                    <Form.Label className="small mb-1">Duration</Form.Label>
                    <Form.Control
                      size="sm"
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={durationMax(session)}
                      step={1}
                      required
                      value={Number.isNaN(session.duration) ? '' : session.duration}
                      isInvalid={!!errors[`${at}.duration`]}
                      aria-invalid={!!errors[`${at}.duration`] || undefined}
                      aria-describedby={
                        errors[`${at}.duration`] ? `${session.key}-duration-error` : undefined
                      }
                      onChange={(e) =>
                        update(index, {
                          ...session,
                          duration: e.target.value === '' ? Number.NaN : Number(e.target.value),
                        })
                      }
                    />
                    <FieldError
                      id={`${session.key}-duration-error`}
                      text={errors[`${at}.duration`]}
                    />
                  </Form.Group>
                  <Form.Group className="col-6 col-md-3" controlId={`${session.key}-unit`}>
                    <Form.Label className="small mb-1">Unit</Form.Label>
                    <Form.Select
                      size="sm"
                      value={session.duration_is_laps ? 'laps' : 'minutes'}
                      isInvalid={!!errors[`${at}.duration_is_laps`]}
                      onChange={(e) =>
                        update(index, { ...session, duration_is_laps: e.target.value === 'laps' })
                      }
                    >
                      <option value="minutes">Minutes</option>
                      <option value="laps">Laps</option>
                    </Form.Select>
                    <FieldError text={errors[`${at}.duration_is_laps`]} />
                  </Form.Group>
                </div>
                <FieldError text={errors[at] ?? errors[`${at}.name`]} />
                <div className="d-flex gap-2 mt-2">
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    aria-label={`Move Up ${label}`}
                    disabled={index === 0}
                    onClick={() => onChange(moveSession(sessions, index, -1))}
                  >
                    Move Up
                  </Button>
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    aria-label={`Move Down ${label}`}
                    disabled={index === sessions.length - 1}
                    onClick={() => onChange(moveSession(sessions, index, 1))}
                  >
                    Move Down
                  </Button>
                  <Button
                    size="sm"
                    variant="outline-danger"
                    className="ms-auto"
                    aria-label={`Remove ${label}`}
                    disabled={sessions.length <= 1}
                    onClick={() => onChange(sessions.filter((_, i) => i !== index))}
                  >
                    Remove
                  </Button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <Dropdown>
          <Dropdown.Toggle size="sm" variant="outline-primary" id="add-session">
            Add Session
          </Dropdown.Toggle>
          <Dropdown.Menu>
            {SESSION_TYPES.filter((t) => t !== 'HOTLAP' || singlePlayer).map((type) => (
              <Dropdown.Item
                key={type}
                as="button"
                type="button"
                disabled={!addable[type]}
                onClick={() => onChange([...sessions, newSession(type)])}
              >
                {SESSION_NAMES[type]}
              </Dropdown.Item>
            ))}
          </Dropdown.Menu>
        </Dropdown>
        <output className="ms-auto fw-semibold" aria-live="polite">
          {estimateText(sessions)}
        </output>
      </div>
    </fieldset>
  );
}

function FieldError({ text, id }: { text?: string; id?: string }) {
  if (!text) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {text}
    </div>
  );
}
