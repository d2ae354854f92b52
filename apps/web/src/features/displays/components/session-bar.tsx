import type { TimingTower } from '@paddock/contract/live-timing';
import { clockText, flagText, lapText, SESSION_WORDS } from './timing-words';
import { useNow } from './use-now';

/** The session's name, clock, flag and fastest lap, above the tower. */
export function SessionBar({ tower }: { tower: TimingTower }) {
  const now = useNow();
  const clock = clockText(tower, now);
  const chequered = tower.session.flag === 'chequered';
  return (
    <div className="paddock-timing-bar">
      <span className="fw-bold">{tower.session.name || SESSION_WORDS[tower.session.type]}</span>
      {tower.session.name && tower.session.name !== SESSION_WORDS[tower.session.type] && (
        <span>{SESSION_WORDS[tower.session.type]}</span>
      )}
      {clock && <span className="paddock-timing-clock">{clock}</span>}
      <span
        className={chequered ? 'paddock-timing-flag-chequered' : 'paddock-timing-flag-green'}
        role="status"
      >
        {flagText(tower)}
      </span>
      {tower.fastest_lap && (
        <span>
          Fastest lap:{' '}
          <span className="paddock-timing-purple">{lapText(tower.fastest_lap.ms)}</span>{' '}
          {tower.fastest_lap.driver} (lap {tower.fastest_lap.lap})
        </span>
      )}
    </div>
  );
}
