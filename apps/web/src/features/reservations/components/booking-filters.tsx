import { useId } from 'react';
import type { CalendarType } from '@paddock/contract/calendars';
import type { Location } from '@paddock/contract/locations';
import { SelectField } from '../../../components/text-field';

/** Staff §5/§9: race minutes are offered in steps of 30. */
export const RACE_MINUTE_OPTIONS = [30, 60, 90, 120, 150, 180, 210, 240];

type Props = {
  locations: Location[];
  location: number | undefined;
  onLocation: (id: number) => void;
  types: CalendarType[];
  chosenTypes: number[];
  onTypes: (ids: number[]) => void;
  racers: number;
  maxRacers: number;
  onRacers: (n: number) => void;
  minutes: number;
  onMinutes: (n: number) => void;
};

/** Where, what kind of simulator, how many racers side by side and for how long. */
export function BookingFilters(props: Props) {
  const typesId = useId();
  const { types, chosenTypes } = props;
  const toggleType = (id: number, on: boolean) =>
    props.onTypes(on ? [...chosenTypes, id] : chosenTypes.filter((t) => t !== id));
  return (
    <>
      <SelectField
        label="Location"
        value={props.location ?? ''}
        onChange={(e) => props.onLocation(Number(e.target.value))}
      >
        {props.location === undefined && <option value="">Choose a location</option>}
        {props.locations.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </SelectField>
      {types.length > 1 && (
        <fieldset className="mb-3" aria-describedby={`${typesId}-hint`}>
          <legend className="form-label fs-6 mb-1">Simulator Types</legend>
          {types.map((t) => (
            // FormCheck's markup, without react-bootstrap's Form on the first paint (decision 0048).
            <div key={t.id} className="form-check">
              <input
                id={`${typesId}-${t.id}`}
                type="checkbox"
                className="form-check-input"
                checked={chosenTypes.includes(t.id)}
                onChange={(e) => toggleType(t.id, e.target.checked)}
              />
              <label className="form-check-label" htmlFor={`${typesId}-${t.id}`}>
                {t.name}
              </label>
            </div>
          ))}
          <small id={`${typesId}-hint`} className="form-text">
            Leave all unticked to see every type.
          </small>
        </fieldset>
      )}
      <div className="d-flex gap-3">
        <SelectField
          label="Racers"
          groupClassName="mb-3 flex-fill"
          value={props.racers}
          onChange={(e) => props.onRacers(Number(e.target.value))}
        >
          {Array.from({ length: props.maxRacers }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Race Minutes"
          groupClassName="mb-3 flex-fill"
          value={props.minutes}
          onChange={(e) => props.onMinutes(Number(e.target.value))}
        >
          {RACE_MINUTE_OPTIONS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </SelectField>
      </div>
    </>
  );
}
