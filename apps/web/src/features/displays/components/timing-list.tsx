import type { TimingTower } from '@paddock/contract/live-timing';
import { Timed } from './timed';
import { gapText, lapText, STATUS_WORDS } from './timing-words';

/** The tower in one column, for a phone: position, driver and gap first, the times below. */
export function TimingList({ tower }: { tower: TimingTower }) {
  return (
    <ol className="list-unstyled paddock-timing-list mb-0" aria-label="Live timing">
      {tower.rows.map((row) => (
        <li key={row.number} className="border-bottom py-2">
          <div className="d-flex gap-2 align-items-baseline">
            <span className="fw-bold fs-5" aria-label={`Position ${row.position}`}>
              {row.position}
            </span>
            <span className="me-auto">
              <span className="fw-semibold">{row.driver}</span>{' '}
              <span className="text-body-secondary small">#{row.number}</span>
            </span>
            <span className="font-monospace">{gapText(row.gap) || STATUS_WORDS[row.status]}</span>
          </div>
          <div className="small text-body-secondary d-flex flex-wrap column-gap-3">
            <span>
              {row.laps} {row.laps === 1 ? 'lap' : 'laps'}
            </span>
            {row.last_lap_ms !== null && (
              <span>
                Last <Timed text={lapText(row.last_lap_ms)} mark={row.last_lap_mark} />
              </span>
            )}
            {row.best_lap_ms !== null && (
              <span>
                Best <Timed text={lapText(row.best_lap_ms)} mark={row.best_lap_mark} />
              </span>
            )}
            {row.status !== 'track' && gapText(row.gap) && <span>{STATUS_WORDS[row.status]}</span>}
            {row.car && <span>{row.car}</span>}
          </div>
        </li>
      ))}
    </ol>
  );
}
